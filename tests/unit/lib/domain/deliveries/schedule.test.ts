import { describe, expect, it } from "vitest";
import { retryDelay, RETRY_JITTER } from "@/lib/domain/deliveries/schedule";

const SVIX = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

describe("retryDelay", () => {
  it("waits the n-th wait of the schedule after the n-th failed attempt, then gives up", () => {
    const middle = () => 0.5;
    expect(SVIX.map((_, index) => retryDelay(index + 1, SVIX, middle))).toEqual(SVIX);
    expect(retryDelay(SVIX.length + 1, SVIX, middle)).toBeUndefined();
    expect(retryDelay(1, [], middle)).toBeUndefined();
  });

  it("strays at most a fifth either way, at random", () => {
    expect(retryDelay(2, SVIX, () => 0)).toBe(300_000 * (1 - RETRY_JITTER));
    expect(retryDelay(2, SVIX, () => 1)).toBe(300_000 * (1 + RETRY_JITTER));
    const waits = new Set(Array.from({ length: 50 }, () => retryDelay(1, SVIX)));
    expect(waits.size).toBeGreaterThan(10);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(4_000);
      expect(wait).toBeLessThanOrEqual(6_000);
    }
  });

  it("adds up to about a day over the whole default schedule", () => {
    const total = SVIX.reduce((sum, wait) => sum + wait, 0);
    expect(total / 3_600_000).toBeGreaterThan(27);
    expect(total / 3_600_000).toBeLessThan(28);
  });
});
