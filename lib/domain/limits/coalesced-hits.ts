import type { WindowCount } from "./counter";

// Every /v1 request on PostgreSQL counts a hit of its API key's counter: one row, which concurrent
// requests of that key update in turn, each waiting for the row lock of the one before. Sent one by
// one, that halved the bench's /v1 reads (GET /v1/waitlist/{id}: 2,478 req/s with the upsert, 4,134
// without). So while a counter's hits are on their way to the database, the hits of that counter
// arriving meanwhile wait, and go together as one statement that adds them all. The database still
// adds up every server's hits: the counts stay exact across servers.

/** Sends `hits` hits of `counter`, counted at `now`: the window's count with them, or undefined when none was counted (a guard held). */
export type SendHits<Counter> = (counter: Counter, hits: number, now: number) => Promise<WindowCount | undefined>;

interface Waiting<Counter> {
  counter: Counter;
  hits: number;
  now: number;
  callers: { resolve: (count: WindowCount | undefined) => void; reject: (error: unknown) => void }[];
}

/**
 * Hits through `send`, those of one counter (the same `keyOf`) coalesced while one of its statements
 * is under way. Each caller gets the count as if its hit had been sent alone, in the order the hits arrived.
 */
export function coalescedHits<Counter>(keyOf: (counter: Counter) => string, send: SendHits<Counter>): (counter: Counter, now: number) => Promise<WindowCount | undefined> {
  const waiting = new Map<string, Waiting<Counter>>();
  const sending = new Set<string>();

  async function sendWaiting(key: string): Promise<void> {
    sending.add(key);
    for (let batch = waiting.get(key); batch; batch = waiting.get(key)) {
      waiting.delete(key);
      try {
        const counted = await send(batch.counter, batch.hits, batch.now);
        const { hits } = batch;
        batch.callers.forEach((caller, index) => caller.resolve(counted && { count: counted.count - hits + index + 1, windowEnd: counted.windowEnd }));
      } catch (error) {
        for (const caller of batch.callers) caller.reject(error);
      }
    }
    sending.delete(key);
  }

  return (counter, now) =>
    new Promise((resolve, reject) => {
      const key = keyOf(counter);
      let batch = waiting.get(key);
      if (!batch) waiting.set(key, (batch = { counter, hits: 0, now, callers: [] }));
      batch.hits++;
      batch.now = Math.max(batch.now, now);
      batch.callers.push({ resolve, reject });
      if (!sending.has(key)) void sendWaiting(key);
    });
}
