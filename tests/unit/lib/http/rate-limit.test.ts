import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { FixedWindowLimiter, MAX_KEY_LENGTH } from "@/lib/http/rate-limit";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Heap bytes `fill` leaves behind, per key of the limiter it fills. */
function heapPerKey(limiter: FixedWindowLimiter, fill: () => void): number {
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  fill();
  collectGarbage();
  return (process.memoryUsage().heapUsed - before) / limiter.size;
}

/** A flat 16 KB string, like a header value Node.js parsed. */
const bigString = (tail: string) => Buffer.from(`${"x".repeat(16_000)},${tail}`, "latin1").toString("latin1");

describe("FixedWindowLimiter", () => {
  it("allows `limit` hits per window, reports what is left and when the window resets", () => {
    const limiter = new FixedWindowLimiter(3, 60_000);
    expect(limiter.hit("k", 0)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60, windowSeconds: 60 });
    expect(limiter.hit("k", 10_000)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 50 });
    expect(limiter.hit("k", 59_500)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 1 });
    expect(limiter.isExhausted("k", 59_500)).toBe(true);
    expect(limiter.hit("k", 59_600)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    // Keys are independent; peek counts nothing.
    expect(limiter.peek("other", 59_600)).toMatchObject({ allowed: true, remaining: 3 });
    expect(limiter.peek("other", 59_600)).toMatchObject({ remaining: 3 });
    // A new window opens with the first hit after the old one ended.
    expect(limiter.hit("k", 60_000)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
    expect(limiter.isExhausted("k", 60_000)).toBe(false);
  });

  it("keeps memory bounded: expired windows go first, then the oldest", () => {
    const limiter = new FixedWindowLimiter(1, 1_000, 3);
    for (const key of ["a", "b", "c"]) limiter.hit(key, 0);
    limiter.hit("d", 500);
    expect(limiter.size).toBe(3);
    // "a" (the oldest) was dropped: it may hit again although its window has not ended.
    expect(limiter.hit("a", 600).allowed).toBe(true);
    expect(limiter.size).toBe(3);
    // After the windows of b..d ended, a sweep removes all of them at once.
    for (let i = 0; i < 3; i++) limiter.hit(`late${i}`, 5_000);
    expect(limiter.size).toBe(3);
    expect(limiter.hit("d", 5_000).allowed).toBe(true);
  });

  it("stays bounded under a flood of distinct keys", () => {
    const limiter = new FixedWindowLimiter(5, 60_000, 1_000);
    for (let i = 0; i < 100_000; i++) limiter.hit(`203.0.113.${i}`, i);
    expect(limiter.size).toBeLessThanOrEqual(1_000);
  });

  it("counts over-long keys like any other, and keeps distinct ones distinct", () => {
    const limiter = new FixedWindowLimiter(2, 60_000);
    const [first, second] = [`${"k".repeat(20_000)}1`, `${"k".repeat(20_000)}2`];
    limiter.hit(first, 0);
    limiter.hit(first, 1);
    expect(limiter.isExhausted(first, 2)).toBe(true);
    expect(limiter.hit(first, 2).allowed).toBe(false);
    expect(limiter.isExhausted(second, 2)).toBe(false);
    expect(limiter.peek(second, 2).remaining).toBe(2);
    // Around the cut-off length too.
    limiter.hit("k".repeat(MAX_KEY_LENGTH), 0);
    expect(limiter.peek("k".repeat(MAX_KEY_LENGTH), 0).remaining).toBe(1);
    expect(limiter.peek("k".repeat(MAX_KEY_LENGTH + 1), 0).remaining).toBe(2);
  });

  it("bounds memory by key length as well as by count", () => {
    // 16 KB keys, and short keys cut from 16 KB strings (which V8 may keep whole behind a slice).
    const long = new FixedWindowLimiter(30, 60_000, 2_000);
    const longBytes = heapPerKey(long, () => {
      for (let i = 0; i < 4_000; i++) long.hit(bigString(String(i)), 0);
    });
    const sliced = new FixedWindowLimiter(30, 60_000, 2_000);
    const slicedBytes = heapPerKey(sliced, () => {
      for (let i = 0; i < 4_000; i++) sliced.hit(bigString(`2001:db8:ffff:${i.toString(16)}::1`).slice(16_001), 0);
    });
    expect(long.size).toBe(2_000);
    expect(sliced.size).toBe(2_000);
    // About 150 bytes per key measured; 16 KB each if the keys were kept as they came.
    expect(longBytes).toBeLessThan(1_024);
    expect(slicedBytes).toBeLessThan(1_024);
  });
});
