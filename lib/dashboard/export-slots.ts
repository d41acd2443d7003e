// How many CSV exports one dashboard session may run at once. An export reads the whole filtered
// list; a script that starts dozens of them keeps the server busy for everyone.

/** Concurrent CSV exports per session. */
export const EXPORTS_PER_SESSION = 2;

/** Counts what each key holds; a key's entry disappears when it holds nothing. */
export class SlotPool {
  private readonly held = new Map<string, number>();

  constructor(readonly slotsPerKey: number) {}

  /** Takes one of `key`'s slots, or returns null when all are in use. The release may be called any number of times. */
  take(key: string): (() => void) | null {
    const count = this.held.get(key) ?? 0;
    if (count >= this.slotsPerKey) return null;
    this.held.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }

  inUse(key: string): number {
    return this.held.get(key) ?? 0;
  }
}

// Next.js may evaluate a module once per bundle: keep one pool per process.
const holder = globalThis as typeof globalThis & { __exportSlots?: SlotPool };

export function exportSlots(): SlotPool {
  holder.__exportSlots ??= new SlotPool(EXPORTS_PER_SESSION);
  return holder.__exportSlots;
}

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
