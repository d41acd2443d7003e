import { describe, expect, it } from "vitest";
import { LimitBook, type WindowSpec } from "@/lib/http/limit-book";

const perKey: WindowSpec = { name: "per-key", limit: 2, windowMs: 60_000, maxKeys: 100 };
const failures: WindowSpec = { name: "failures", limit: 1, windowMs: 60_000, maxKeys: 100 };
const exports = { name: "exports", slotsPerKey: 1 };

describe("LimitBook", () => {
  it("keeps one counter per limit name, opened on first use", () => {
    const book = new LimitBook();
    expect(book.run({ op: "hit", window: perKey, key: "k" })).toMatchObject({ allowed: true, remaining: 1 });
    expect(book.run({ op: "peek", window: perKey, key: "k" })).toMatchObject({ remaining: 1 });
    expect(book.run({ op: "hit", window: perKey, key: "k" })).toMatchObject({ allowed: true, remaining: 0 });
    expect(book.run({ op: "hit", window: perKey, key: "k" })).toMatchObject({ allowed: false });
    // Another limit with the same key counts apart.
    expect(book.run({ op: "hit", window: failures, key: "k" })).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("hits the guard instead of the limit while the guard's key has used it up", () => {
    const book = new LimitBook();
    const admit = (address: string) => book.run({ op: "hit-unless-exhausted", window: perKey, key: "key-1", guard: failures, guardKey: address });
    expect(admit("203.0.113.1")).toMatchObject({ guarded: false, state: { remaining: 1 } });
    book.run({ op: "hit", window: failures, key: "203.0.113.2" });
    expect(admit("203.0.113.2")).toMatchObject({ guarded: true, state: { allowed: false, limit: 1 } });
    // The key was not charged for the refused request.
    expect(book.run({ op: "peek", window: perKey, key: "key-1" })).toMatchObject({ remaining: 1 });
  });

  it("gives slot tickets, frees a slot on release and every slot of an owner that is gone", () => {
    const book = new LimitBook();
    const first = book.run({ op: "take", slots: exports, key: "session" }, 1);
    expect(first).toEqual(expect.any(Number));
    expect(book.run({ op: "take", slots: exports, key: "session" }, 2)).toBeNull();
    book.run({ op: "release", ticket: first as number });
    book.run({ op: "release", ticket: first as number });
    const second = book.run({ op: "take", slots: exports, key: "session" }, 2);
    expect(second).not.toBeNull();
    expect(book.run({ op: "take", slots: exports, key: "session" }, 1)).toBeNull();
    book.releaseAll(2);
    expect(book.run({ op: "take", slots: exports, key: "session" }, 1)).not.toBeNull();
  });
});
