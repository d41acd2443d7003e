import cluster from "node:cluster";
import { env } from "@/lib/core/env";
import { processSingleton } from "@/lib/core/process-slots";
import { FixedWindowLimiter, type LimitState } from "./rate-limit";
import { SlotPool } from "./slot-pool";

// The counts behind every limit (requests per key, failures per address, requests and exports per
// dashboard session). On SQLite, in the memory of the process that serves the request: a cluster's
// workers (WEB_CONCURRENCY > 1, lib/server/primary.ts) count alone, each allowing the documented
// limit ÷ workers, rounded up, and node:cluster spreads connections evenly between them. On
// PostgreSQL, where several servers may share the database, in its tables (a LimitStore,
// lib/domain/limits/shared.ts): every server and worker counts against the one limit.

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

/** The limits as every request checks them, wherever they are counted. */
export interface Limits {
  hit(window: WindowSpec, key: string): Promise<LimitState>;
  peek(window: WindowSpec, key: string): Promise<LimitState>;
  hitUnlessExhausted(window: WindowSpec, key: string, guard: WindowSpec, guardKey: string): Promise<GuardedHit>;
  take(slots: SlotSpec, key: string): Promise<(() => void) | null>;
}

/** A key's current window as a database counts it: its hits, this one included, and when it ends (ms since the epoch). */
export interface StoredWindow {
  count: number;
  windowEnd: number;
}

/** Counters and leases that every server on a database shares (lib/domain/limits/shared.ts gives the app's). */
export interface LimitStore {
  hit(key: string, windowMs: number, now: number): Promise<StoredWindow>;
  peek(key: string, now: number): Promise<StoredWindow | undefined>;
  /** hit, unless the counter `guard.key` has reached `guard.limit` in its window: then nothing is counted (undefined). */
  hitUnlessGuarded(key: string, windowMs: number, guard: { key: string; limit: number }, now: number): Promise<StoredWindow | undefined>;
  /** A lease held until released (renewed meanwhile), or null while another holder has it. */
  hold(key: string, leaseMs: number): Promise<(() => Promise<void>) | null>;
}

/** How long a held slot outlives a server that died holding it. */
export const SLOT_LEASE_MS = 60_000;

function stateOf({ limit, windowMs }: WindowSpec, { count, windowEnd }: StoredWindow, now: number): LimitState {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
    windowSeconds: Math.round(windowMs / 1000),
  };
}

/** The limits in a LimitStore: the documented limit across every server on the database, not a share of it. */
export class StoredLimits implements Limits {
  constructor(
    private readonly store: LimitStore,
    private readonly log: (message: string) => void = console.error,
  ) {}

  async hit(window: WindowSpec, key: string, now = Date.now()): Promise<LimitState> {
    return stateOf(window, await this.store.hit(`${window.name} ${key}`, window.windowMs, now), now);
  }

  async peek(window: WindowSpec, key: string, now = Date.now()): Promise<LimitState> {
    return stateOf(window, (await this.store.peek(`${window.name} ${key}`, now)) ?? { count: 0, windowEnd: now + window.windowMs }, now);
  }

  async hitUnlessExhausted(window: WindowSpec, key: string, guard: WindowSpec, guardKey: string, now = Date.now()): Promise<GuardedHit> {
    const counted = await this.store.hitUnlessGuarded(`${window.name} ${key}`, window.windowMs, { key: `${guard.name} ${guardKey}`, limit: guard.limit }, now);
    if (counted) return { guarded: false, state: stateOf(window, counted, now) };
    return { guarded: true, state: await this.hit(guard, guardKey, now) };
  }

  async take({ name, slotsPerKey }: SlotSpec, key: string): Promise<(() => void) | null> {
    for (let slot = 0; slot < slotsPerKey; slot++) {
      const release = await this.store.hold(`${name} ${key} ${slot}`, SLOT_LEASE_MS);
      if (release) return () => void release().catch((error: unknown) => this.log(`limits: a ${name} slot was not released (it lapses within ${SLOT_LEASE_MS / 1000} s): ${String(error)}`));
    }
    return null;
  }
}

/** A LimitBook behind the asynchronous Limits (what a process counts in its memory). */
export function memoryLimits(book: LimitBook): Limits {
  return {
    hit: async (window, key) => book.hit(window, key),
    peek: async (window, key) => book.peek(window, key),
    hitUnlessExhausted: async (window, key, guard, guardKey) => book.hitUnlessExhausted(window, key, guard, guardKey),
    take: async (slots, key) => book.take(slots, key),
  };
}

/** This process's book (one, though Next.js may evaluate this module once per bundle): the whole server's, or a worker's share of them. */
const processLimits = processSingleton("limit book", () => memoryLimits(new LimitBook(cluster.isWorker ? env().WEB_CONCURRENCY : 1)));
const storedLimits = new WeakMap<LimitStore, Limits>();

/** The server's limits: counted in `shared` when there is one (PostgreSQL: sharedLimitStore()), else in this process's memory. */
export function serverLimits(shared: LimitStore | undefined): Limits {
  if (!shared) return processLimits();
  let limits = storedLimits.get(shared);
  if (!limits) storedLimits.set(shared, (limits = new StoredLimits(shared)));
  return limits;
}
