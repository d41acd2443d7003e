import { describe, expect, it } from "vitest";
import { clientAddress, SlidingWindowLimiter } from "@/lib/rate-limit";

describe("SlidingWindowLimiter", () => {
  it("allows `limit` hits per window, then says how long to wait", () => {
    const limiter = new SlidingWindowLimiter(3, 1000);
    for (let time = 0; time < 3; time++) {
      expect(limiter.retryAfterMs("a", time * 100)).toBe(0);
      limiter.record("a", time * 100);
    }
    expect(limiter.retryAfterMs("a", 300)).toBe(700);
    expect(limiter.retryAfterMs("b", 300)).toBe(0);
    // The oldest hit leaves the window at 1000 ms.
    expect(limiter.retryAfterMs("a", 1000)).toBe(0);
    limiter.reset("a");
    expect(limiter.retryAfterMs("a", 300)).toBe(0);
  });

  it("keeps at most maxKeys addresses", () => {
    const limiter = new SlidingWindowLimiter(1, 1000, 2);
    limiter.record("a", 0);
    limiter.record("b", 0);
    limiter.record("c", 0);
    expect(limiter.retryAfterMs("a", 1)).toBe(0);
    expect(limiter.retryAfterMs("c", 1)).toBeGreaterThan(0);
  });
});

describe("clientAddress", () => {
  it("takes the last X-Forwarded-For entry", () => {
    expect(clientAddress("203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.1, 198.51.100.4")).toBe("198.51.100.4");
    expect(clientAddress(null)).toBe("unknown");
    expect(clientAddress("")).toBe("unknown");
  });
});
