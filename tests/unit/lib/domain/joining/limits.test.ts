import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/db/client";
import { HOUR_MS, MINUTE_MS } from "@/lib/core/time";
import { joinLimitHit } from "@/lib/domain/joining/limits";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

vi.hoisted(() => {
  process.env.JOINS_PER_CLIENT_PER_HOUR = "30";
  process.env.JOINS_PER_WAITLIST_PER_MINUTE = "50";
});

describe("joinLimitHit", () => {
  let temp: TempDatabase;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => temp.close());

  const hit = async (waitlistId: string, email: string, at: number, clientAddress?: string, db = temp.db) => await joinLimitHit({ waitlistId, email, clientAddress }, at, db);

  it("allows 10 joins per address and waitlist per hour (any case), then says how long to wait", async () => {
    const start = Date.UTC(2026, 0, 1);
    for (let attempt = 0; attempt < 10; attempt++) expect(await hit("list-a", attempt % 2 ? "Ann@Example.com" : "ann@example.com", start + attempt)).toBeUndefined();
    expect(await hit("list-a", "ANN@example.com", start + MINUTE_MS)).toEqual({ limit: "address", retryAfterSeconds: (HOUR_MS - MINUTE_MS) / 1000 });
    // Another list, another address: counted apart.
    expect(await hit("list-b", "ann@example.com", start + MINUTE_MS)).toBeUndefined();
    expect(await hit("list-a", "bob@example.com", start + MINUTE_MS)).toBeUndefined();
    // A new window after the hour.
    expect(await hit("list-a", "ann@example.com", start + HOUR_MS)).toBeUndefined();
  });

  it("counts in the database: another connection (another worker, or the server after a restart) sees the same count", async () => {
    const start = Date.UTC(2026, 0, 1);
    const other = openDatabase(temp.path);
    try {
      for (let attempt = 0; attempt < 10; attempt++) expect(await hit("list-a", "ann@example.com", start + attempt, undefined, attempt % 2 ? other : temp.db)).toBeUndefined();
      expect(await hit("list-a", "ann@example.com", start + 10, undefined, other)).toMatchObject({ limit: "address" });
      expect(await hit("list-a", "ann@example.com", start + 11, undefined, temp.db)).toMatchObject({ limit: "address" });
    } finally {
      other.$client.close();
    }
  });

  it("allows JOINS_PER_CLIENT_PER_HOUR joins per client address, whatever the addresses and lists", async () => {
    const start = Date.UTC(2026, 0, 3);
    for (let join = 0; join < 30; join++) expect(await hit(`list-${join % 3}`, `p${join}@example.com`, start, "203.0.113.7")).toBeUndefined();
    expect(await hit("list-0", "late@example.com", start + MINUTE_MS, "203.0.113.7")).toEqual({ limit: "client", retryAfterSeconds: (HOUR_MS - MINUTE_MS) / 1000 });
    expect(await hit("list-0", "late@example.com", start + MINUTE_MS, "203.0.113.8")).toBeUndefined();
    // No client address (the CLI, a test): no such limit.
    expect(await hit("list-0", "later@example.com", start + MINUTE_MS)).toBeUndefined();
  });

  it("allows JOINS_PER_WAITLIST_PER_MINUTE joins per waitlist, then refuses that list only until the minute ends", async () => {
    const start = Date.UTC(2026, 0, 2);
    for (let join = 0; join < 50; join++) expect(await hit("busy-list", `p${join}@example.com`, start)).toBeUndefined();
    expect(await hit("busy-list", "late@example.com", start + 45_000)).toEqual({ limit: "waitlist", retryAfterSeconds: 15 });
    expect(await hit("quiet-list", "late@example.com", start + 45_000)).toBeUndefined();
    expect(await hit("busy-list", "late@example.com", start + MINUTE_MS)).toBeUndefined();
  });

  it("names people by a keyed hash only, and prunes windows that ended", async () => {
    const start = Date.UTC(2026, 0, 4);
    await hit("list-a", "secret.person@example.com", start, "198.51.100.23");
    const keys = () => temp.db.$client.prepare("SELECT key FROM rate_limits ORDER BY key").pluck().all() as string[];
    expect(keys()).toHaveLength(3);
    expect(keys().join(" ")).not.toMatch(/secret|person|example|198\.51/);
    // Two hours on, the next hit prunes the ended windows: only its own three counters are left.
    await hit("list-b", "next@example.com", start + 2 * HOUR_MS);
    expect(keys()).toHaveLength(2);
    expect(keys().some((key) => key.includes("list-a"))).toBe(false);
  });
});
