import { describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "@/lib/rate-limit";

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
});
