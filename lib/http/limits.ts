import cluster from "node:cluster";
import { env } from "@/lib/core/env";
import { processSingleton } from "@/lib/core/process-slots";
import { FixedWindowLimiter, type LimitState } from "./rate-limit";
import { SlotPool } from "./slot-pool";

// The counts behind every limit (requests per key, failures per address, requests and exports per
// dashboard session), in the memory of the process that serves the request. A cluster's workers
// (WEB_CONCURRENCY > 1, lib/server/primary.ts) count alone: each allows the documented limit ÷
// workers, rounded up, and node:cluster spreads connections evenly between them.

/** A fixed-window limit (see FixedWindowLimiter), as documented for the whole server. `name` identifies its counter. */
export interface WindowSpec {
  name: string;
  limit: number;
  windowMs: number;
  maxKeys: number;
}

/** Concurrent slots per key (see SlotPool), for the whole server. */
export interface SlotSpec {
  name: string;
  slotsPerKey: number;
}

export interface GuardedHit {
  /** True when the guard was exhausted, so `state` is the guard's. */
  guarded: boolean;
  state: LimitState;
}

/** One process's share of a server-wide limit. */
export function shareOf(limit: number, workers: number): number {
  return Math.ceil(limit / workers);
}

export class LimitBook {
  private readonly windows = new Map<string, FixedWindowLimiter>();
  private readonly pools = new Map<string, SlotPool>();

  /** `workers`: how many processes share the server's limits. */
  constructor(private readonly workers = 1) {}

  /** Counts one hit for `key`. */
  hit(window: WindowSpec, key: string): LimitState {
    return this.window(window).hit(key);
  }

  /** The state of `key` without counting a hit. */
  peek(window: WindowSpec, key: string): LimitState {
    return this.window(window).peek(key);
  }

  /** One hit of `window` for `key`, unless `guardKey` has used up `guard`: then the guard is hit instead. */
  hitUnlessExhausted(window: WindowSpec, key: string, guard: WindowSpec, guardKey: string): GuardedHit {
    const guardLimiter = this.window(guard);
    if (guardLimiter.isExhausted(guardKey)) return { guarded: true, state: guardLimiter.hit(guardKey) };
    return { guarded: false, state: this.window(window).hit(key) };
  }

  /** One of `key`'s slots and its release (which may be called any number of times), or null when all are held. */
  take(slots: SlotSpec, key: string): (() => void) | null {
    return this.pool(slots).take(key);
  }

  private window({ name, limit, windowMs, maxKeys }: WindowSpec): FixedWindowLimiter {
    let limiter = this.windows.get(name);
    if (!limiter) this.windows.set(name, (limiter = new FixedWindowLimiter(shareOf(limit, this.workers), windowMs, maxKeys)));
    return limiter;
  }

  private pool({ name, slotsPerKey }: SlotSpec): SlotPool {
    let pool = this.pools.get(name);
    if (!pool) this.pools.set(name, (pool = new SlotPool(shareOf(slotsPerKey, this.workers))));
    return pool;
  }
}

/** This process's limits (one book, though Next.js may evaluate this module once per bundle): the whole server's, or a worker's share of them. */
export const serverLimits = processSingleton("limit book", () => new LimitBook(cluster.isWorker ? env().WEB_CONCURRENCY : 1));
