import { describe, expect, it } from "vitest";
import { HOUR_MS, MINUTE_MS } from "@/lib/core/time";
import { joinLimitHit } from "@/lib/domain/joining/limits";

describe("joinLimitHit", () => {
  it("allows 10 joins per address and waitlist per hour (any case), then says how long to wait", () => {
    const start = Date.UTC(2026, 0, 1);
    for (let attempt = 0; attempt < 10; attempt++) expect(joinLimitHit("list-a", attempt % 2 ? "Ann@Example.com" : "ann@example.com", start + attempt)).toBeUndefined();
    expect(joinLimitHit("list-a", "ANN@example.com", start + MINUTE_MS)).toEqual({ limit: "address", retryAfterSeconds: (HOUR_MS - MINUTE_MS) / 1000 });
    // Another list, another address: counted apart.
    expect(joinLimitHit("list-b", "ann@example.com", start + MINUTE_MS)).toBeUndefined();
    expect(joinLimitHit("list-a", "bob@example.com", start + MINUTE_MS)).toBeUndefined();
    // A new window after the hour.
    expect(joinLimitHit("list-a", "ann@example.com", start + HOUR_MS)).toBeUndefined();
  });

  it("allows 120,000 joins per waitlist per minute, then refuses that list only until the minute ends", () => {
    const start = Date.UTC(2026, 0, 2);
    for (let join = 0; join < 120_000; join++) {
      if (joinLimitHit("busy-list", `p${join}@example.com`, start) !== undefined) throw new Error(`join ${join} was refused`);
    }
    expect(joinLimitHit("busy-list", "late@example.com", start + 45_000)).toEqual({ limit: "waitlist", retryAfterSeconds: 15 });
    expect(joinLimitHit("quiet-list", "late@example.com", start + 45_000)).toBeUndefined();
    expect(joinLimitHit("busy-list", "late@example.com", start + MINUTE_MS)).toBeUndefined();
  });
});
