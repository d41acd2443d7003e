import { describe, expect, it } from "vitest";
import { niceTicks } from "@/lib/dashboard/chart-ticks";

describe("niceTicks", () => {
  it("spaces the ticks evenly by 1, 2 or 5 times a power of ten, from 0 to the first tick at or above the maximum", () => {
    expect(niceTicks(3400)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(niceTicks(3000)).toEqual([0, 1000, 2000, 3000]);
    expect(niceTicks(5)).toEqual([0, 2, 4, 6]);
    expect(niceTicks(8)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(49)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(100)).toEqual([0, 50, 100]);
    expect(niceTicks(101)).toEqual([0, 50, 100, 150]);
    expect(niceTicks(1_234_567)).toEqual([0, 500_000, 1_000_000, 1_500_000]);
  });

  it("never steps by less than one signup", () => {
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(2)).toEqual([0, 1, 2]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
  });

  it("shows 0 and 1 for an empty chart", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
  });

  it("every step is equal and the top tick covers the maximum, for any maximum", () => {
    for (let max = 1; max < 50_000; max += 37) {
      const ticks = niceTicks(max);
      const step = ticks[1]! - ticks[0]!;
      expect(ticks[0]).toBe(0);
      expect(ticks.every((tick, index) => tick === index * step)).toBe(true);
      expect(ticks.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(ticks.at(-2)!).toBeLessThan(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
      expect(String(step)).toMatch(/^[125]0*$/);
    }
  });
});
