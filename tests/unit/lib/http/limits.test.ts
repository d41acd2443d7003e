import { describe, expect, it } from "vitest";
import { LimitBook, shareOf, type WindowSpec } from "@/lib/http/limits";

const perKey: WindowSpec = { name: "per-key", limit: 2, windowMs: 60_000, maxKeys: 100 };
const failures: WindowSpec = { name: "failures", limit: 1, windowMs: 60_000, maxKeys: 100 };
const exports = { name: "exports", slotsPerKey: 1 };

describe("LimitBook", () => {
  it("keeps one counter per limit name, opened on first use", () => {
    const book = new LimitBook();
    expect(book.hit(perKey, "k")).toMatchObject({ allowed: true, remaining: 1 });
    expect(book.peek(perKey, "k")).toMatchObject({ remaining: 1 });
    expect(book.hit(perKey, "k")).toMatchObject({ allowed: true, remaining: 0 });
    expect(book.hit(perKey, "k")).toMatchObject({ allowed: false });
    // Another limit with the same key counts apart.
    expect(book.hit(failures, "k")).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("hits the guard instead of the limit while the guard's key has used it up", () => {
    const book = new LimitBook();
    const admit = (address: string) => book.hitUnlessExhausted(perKey, "key-1", failures, address);
    expect(admit("203.0.113.1")).toMatchObject({ guarded: false, state: { remaining: 1 } });
    book.hit(failures, "203.0.113.2");
    expect(admit("203.0.113.2")).toMatchObject({ guarded: true, state: { allowed: false, limit: 1 } });
    // The key was not charged for the refused request.
    expect(book.peek(perKey, "key-1")).toMatchObject({ remaining: 1 });
  });

  it("gives slots, frees one on release (any number of times), per key", () => {
    const book = new LimitBook();
    const first = book.take(exports, "session");
    expect(first).toEqual(expect.any(Function));
    expect(book.take(exports, "session")).toBeNull();
    expect(book.take(exports, "other session")).not.toBeNull();
    first!();
    first!();
    expect(book.take(exports, "session")).not.toBeNull();
    expect(book.take(exports, "session")).toBeNull();
  });

  it("a worker's share of every limit is the documented limit ÷ workers, rounded up", () => {
    expect([shareOf(600, 1), shareOf(600, 2), shareOf(601, 2), shareOf(10, 3), shareOf(1, 4)]).toEqual([600, 300, 301, 4, 1]);
    const book = new LimitBook(2);
    const window: WindowSpec = { name: "w", limit: 3, windowMs: 60_000, maxKeys: 100 };
    expect(book.hit(window, "k")).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(book.hit(window, "k")).toMatchObject({ allowed: true, remaining: 0 });
    expect(book.hit(window, "k")).toMatchObject({ allowed: false });
    const slots = { name: "s", slotsPerKey: 2 };
    expect(book.take(slots, "session")).not.toBeNull();
    expect(book.take(slots, "session")).toBeNull();
  });
});
