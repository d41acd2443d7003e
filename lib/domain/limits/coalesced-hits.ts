import type { WindowCount } from "./counter";

// Every /v1 request on PostgreSQL counts a hit of its API key's counter: one row, which concurrent
// requests of that key update in turn, each waiting for the row lock of the one before. Sent one by
// one, that halved the bench's /v1 reads (GET /v1/waitlist/{id}: 2,478 req/s with the upsert, 4,134
// without). So while a counter's hits are on their way to the database, the hits of that counter
// arriving meanwhile wait, and go together as one statement that adds them all. The database still
// adds up every server's hits: the counts stay exact across servers.

/** Sends `hits` hits of the counter named `counter`, counted at `now`: the window's count with them, or undefined when none was counted (a guard held). */
export type SendHits = (counter: string, hits: number, now: number) => Promise<WindowCount | undefined>;

interface Waiting {
  hits: number;
  now: number;
  callers: { resolve: (count: WindowCount | undefined) => void; reject: (error: unknown) => void }[];
}

/**
 * Hits through `send`, those of one counter coalesced while one of its statements is under way. Each
 * caller gets the count as if its hit had been sent alone, in the order the hits arrived.
 */
export function coalescedHits(send: SendHits): (counter: string, now: number) => Promise<WindowCount | undefined> {
  const waiting = new Map<string, Waiting>();
  const sending = new Set<string>();

  async function sendWaiting(counter: string): Promise<void> {
    sending.add(counter);
    for (let batch = waiting.get(counter); batch; batch = waiting.get(counter)) {
      waiting.delete(counter);
      try {
        const counted = await send(counter, batch.hits, batch.now);
        const { hits } = batch;
        batch.callers.forEach((caller, index) => caller.resolve(counted && { count: counted.count - hits + index + 1, windowEnd: counted.windowEnd }));
      } catch (error) {
        for (const caller of batch.callers) caller.reject(error);
      }
    }
    sending.delete(counter);
  }

  return (counter, now) =>
    new Promise((resolve, reject) => {
      let batch = waiting.get(counter);
      if (!batch) waiting.set(counter, (batch = { hits: 0, now, callers: [] }));
      batch.hits++;
      batch.now = Math.max(batch.now, now);
      batch.callers.push({ resolve, reject });
      if (!sending.has(counter)) void sendWaiting(counter);
    });
}
