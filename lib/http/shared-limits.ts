import cluster from "node:cluster";
import { LimitBook, type GuardedHit, type LimitCall, type LimitResult, type LimitResults, type SlotSpec, type WindowSpec } from "./limit-book";
import type { LimitState } from "./rate-limit";

// Where the server's limits are counted: in this process's LimitBook, or, in a worker of the
// cluster (WEB_CONCURRENCY > 1), in the primary's, asked over the IPC channel. The calls of one
// turn of the event loop go in one message and come back in one (what that costs:
// tests/bench/README.md, "Workers").

/** Tags the IPC messages of the limits between a worker and the primary. */
export const LIMITS_MESSAGE = "waitlist:limits";

/** A worker's calls; one without `id` (a release) gets no reply. */
export interface LimitRequestMessage {
  type: typeof LIMITS_MESSAGE;
  calls: { id?: number; call: LimitCall }[];
}

export interface LimitReplyMessage {
  type: typeof LIMITS_MESSAGE;
  replies: { id: number; result?: LimitResult; error?: string }[];
}

export function isLimitRequest(message: unknown): message is LimitRequestMessage {
  return (message as LimitRequestMessage | null)?.type === LIMITS_MESSAGE;
}

type Run = <Call extends LimitCall>(call: Call) => Promise<LimitResults[Call["op"]]>;

function inProcess(): Run {
  const book = new LimitBook();
  return async (call) => book.run(call) as never;
}

function throughPrimary(): Run {
  const pending = new Map<number, { resolve: (result: never) => void; reject: (error: Error) => void }>();
  let queued: LimitRequestMessage["calls"] = [];
  let nextId = 0;
  const settle = (id: number, outcome: { result?: LimitResult; error?: Error }) => {
    const caller = pending.get(id);
    pending.delete(id);
    if (outcome.error) caller?.reject(outcome.error);
    else caller?.resolve(outcome.result as never);
  };
  process.on("message", (message: LimitReplyMessage) => {
    if (message?.type !== LIMITS_MESSAGE) return;
    for (const { id, result, error } of message.replies) settle(id, error === undefined ? { result } : { error: new Error(`rate limits: ${error}`) });
  });
  const flush = () => {
    const calls = queued;
    queued = [];
    process.send!({ type: LIMITS_MESSAGE, calls } satisfies LimitRequestMessage, undefined, undefined, (error: Error | null) => {
      // Fails only once the primary is gone. Node's cluster ends a worker on that 'disconnect', but a
      // request whose limit could not be counted would meanwhile be answered with a 500: end it now,
      // and its connections with it, as the kill of the primary meant.
      if (error) process.exit(0);
    });
  };
  const enqueue = (entry: LimitRequestMessage["calls"][number]) => {
    if (queued.length === 0) setImmediate(flush);
    queued.push(entry);
  };
  return (call) => {
    if (call.op === "release") {
      enqueue({ call });
      return Promise.resolve(null as never);
    }
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      enqueue({ id, call });
    });
  };
}

export interface SharedLimits {
  /** Counts one hit for `key`. */
  hit(window: WindowSpec, key: string): Promise<LimitState>;
  /** The state of `key` without counting a hit. */
  peek(window: WindowSpec, key: string): Promise<LimitState>;
  /** One hit of `window` for `key`, unless `guardKey` has used up `guard`: then the guard is hit instead. */
  hitUnlessExhausted(window: WindowSpec, key: string, guard: WindowSpec, guardKey: string): Promise<GuardedHit>;
  /** One of `key`'s slots and its release (which may be called any number of times), or null when all are held. */
  take(slots: SlotSpec, key: string): Promise<(() => void) | null>;
}

function sharedLimitsOver(run: Run): SharedLimits {
  return {
    hit: (window, key) => run({ op: "hit", window, key }),
    peek: (window, key) => run({ op: "peek", window, key }),
    hitUnlessExhausted: (window, key, guard, guardKey) => run({ op: "hit-unless-exhausted", window, key, guard, guardKey }),
    async take(slots, key) {
      const ticket = await run({ op: "take", slots, key });
      if (ticket === null) return null;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        void run({ op: "release", ticket });
      };
    },
  };
}

// Next.js may evaluate a module once per bundle: one book (or one channel to it) per process.
const holder = globalThis as typeof globalThis & { __sharedLimits?: SharedLimits };

/** The server's limits: counted here, or by the cluster's primary when this process is one of its workers. */
export function sharedLimits(): SharedLimits {
  holder.__sharedLimits ??= sharedLimitsOver(cluster.isWorker ? throughPrimary() : inProcess());
  return holder.__sharedLimits;
}
