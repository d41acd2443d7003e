// How many CSV exports one dashboard session may run at once. An export reads the whole filtered
// list; a script that starts dozens of them keeps the server busy for everyone.
import type { SlotSpec } from "@/lib/http/limits";

/** Concurrent CSV exports per session. */
export const EXPORTS_PER_SESSION = 2;

/** The sessions' export slots: per server on SQLite (each worker allows its share), across all servers on PostgreSQL (see lib/http/limits.ts). */
export const EXPORT_SLOTS: SlotSpec = { name: "csv-exports", slotsPerKey: EXPORTS_PER_SESSION };

/**
 * `stream`, calling `release` once it ends, fails or its reader cancels it, or `signal` aborts: the
 * client may disconnect before the server starts sending, and then nobody reads or cancels the stream.
 */
export function releasingWhenDone<T>(stream: ReadableStream<T>, release: () => void, signal?: AbortSignal): ReadableStream<T> {
  if (signal?.aborted) release();
  signal?.addEventListener("abort", release, { once: true });
  const reader = stream.getReader();
  return new ReadableStream<T>(
    {
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) {
            release();
            controller.close();
          } else {
            controller.enqueue(next.value);
          }
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      async cancel(reason) {
        release();
        await reader.cancel(reason);
      },
    },
    // Read from `stream` only when our reader asks: the source already batches.
    { highWaterMark: 0 },
  );
}
