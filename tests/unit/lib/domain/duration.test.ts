import { describe, expect, it } from "vitest";
import { durationSchema } from "@/lib/domain/duration";

describe("--expires-in durations", () => {
  it.each([
    ["90m", 90 * 60_000],
    ["12h", 12 * 3_600_000],
    ["30d", 30 * 86_400_000],
    [" 1d ", 86_400_000],
    ["3650d", 3650 * 86_400_000],
  ])("%j is %d ms", (text, ms) => {
    expect(durationSchema.parse(text)).toBe(ms);
  });

  it.each(["", "30", "0d", "-5d", "1.5h", "1y", "10s", "d", "3651d", "01d"])("refuses %j", (text) => {
    expect(durationSchema.safeParse(text).success).toBe(false);
  });
});
