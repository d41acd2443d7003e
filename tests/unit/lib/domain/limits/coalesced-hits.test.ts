import { describe, expect, it } from "vitest";
import { coalescedHits } from "@/lib/domain/limits/coalesced-hits";
import type { WindowCount } from "@/lib/domain/limits/counter";

// The batching alone, over a counter kept in memory (shared.test.ts runs it on PostgreSQL and SQLite).

function counterInMemory() {
  const counts = new Map<string, number>();
  const sent: { counter: string; hits: number }[] = [];
  let failNext = false;
  const send = async (counter: string, hits: number): Promise<WindowCount | undefined> => {
    sent.push({ counter, hits });
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (failNext) {
      failNext = false;
      throw new Error("database unreachable");
    }
    counts.set(counter, (counts.get(counter) ?? 0) + hits);
    return { count: counts.get(counter)!, windowEnd: 1_000 };
  };
  return { send, sent, failOnce: () => (failNext = true) };
}

describe("coalescedHits", () => {
  it("sends the first hit at once, and the hits that arrive while it is under way as one statement", async () => {
    const memory = counterInMemory();
    const hit = coalescedHits((counter: string) => counter, memory.send);
    const counts = await Promise.all(Array.from({ length: 10 }, () => hit("a", 0)));
    expect(counts.map((count) => count!.count)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(memory.sent).toEqual([
      { counter: "a", hits: 1 },
      { counter: "a", hits: 9 },
    ]);
  });

  it("keeps counters apart", async () => {
    const memory = counterInMemory();
    const hit = coalescedHits((counter: string) => counter, memory.send);
    const [a1, b1, a2] = await Promise.all([hit("a", 0), hit("b", 0), hit("a", 0)]);
    expect([a1!.count, b1!.count, a2!.count]).toEqual([1, 1, 2]);
    expect(memory.sent).toEqual([
      { counter: "a", hits: 1 },
      { counter: "b", hits: 1 },
      { counter: "a", hits: 1 },
    ]);
  });

  it("fails every hit of a statement that fails, and sends the next ones", async () => {
    const memory = counterInMemory();
    const hit = coalescedHits((counter: string) => counter, memory.send);
    memory.failOnce();
    const first = hit("a", 0);
    const together = [hit("a", 0), hit("a", 0)];
    await expect(first).rejects.toThrow("database unreachable");
    expect((await Promise.all(together)).map((count) => count!.count)).toEqual([1, 2]);
    expect((await hit("a", 0))!.count).toBe(3);
  });
});
