import { FixedWindowLimiter, type LimitState } from "./rate-limit";
import { SlotPool } from "./slot-pool";

// The counts behind every limit (requests per key, failures per address, requests and exports per
// dashboard session), kept in one place per server: the process itself, or the cluster's primary
// on behalf of all its workers (lib/server/primary.ts), so that a limit means the same with one
// worker or many. Callers describe the limit with each call; the book opens its counter on first use.

/** A fixed-window limit (see FixedWindowLimiter). `name` identifies its counter. */
export interface WindowSpec {
  name: string;
  limit: number;
  windowMs: number;
  maxKeys: number;
}

/** Concurrent slots per key (see SlotPool). */
export interface SlotSpec {
  name: string;
  slotsPerKey: number;
}

export type LimitCall =
  | { op: "hit" | "peek"; window: WindowSpec; key: string }
  /** Hits `window` for `key`, unless `guardKey` has used up `guard`: then that guard is hit instead. */
  | { op: "hit-unless-exhausted"; window: WindowSpec; key: string; guard: WindowSpec; guardKey: string }
  /** A ticket for one of `key`'s slots, or null when all are held. */
  | { op: "take"; slots: SlotSpec; key: string }
  | { op: "release"; ticket: number };

export interface GuardedHit {
  /** True when the guard was exhausted, so `state` is the guard's. */
  guarded: boolean;
  state: LimitState;
}

export interface LimitResults {
  hit: LimitState;
  peek: LimitState;
  "hit-unless-exhausted": GuardedHit;
  take: number | null;
  release: null;
}

export type LimitResult = LimitResults[keyof LimitResults];

export class LimitBook {
  private readonly windows = new Map<string, FixedWindowLimiter>();
  private readonly pools = new Map<string, SlotPool>();
  private readonly tickets = new Map<number, { owner: number; release: () => void }>();
  private nextTicket = 1;

  /** Runs one call; `owner` (a worker id) holds the slots it takes until it releases them or releaseAll(owner). */
  run(call: LimitCall, owner = 0): LimitResult {
    switch (call.op) {
      case "hit":
        return this.window(call.window).hit(call.key);
      case "peek":
        return this.window(call.window).peek(call.key);
      case "hit-unless-exhausted": {
        const guard = this.window(call.guard);
        if (guard.isExhausted(call.guardKey)) return { guarded: true, state: guard.hit(call.guardKey) };
        return { guarded: false, state: this.window(call.window).hit(call.key) };
      }
      case "take": {
        const release = this.pool(call.slots).take(call.key);
        if (!release) return null;
        const ticket = this.nextTicket++;
        this.tickets.set(ticket, { owner, release });
        return ticket;
      }
      case "release":
        this.tickets.get(call.ticket)?.release();
        this.tickets.delete(call.ticket);
        return null;
    }
  }

  /** Frees every slot `owner` holds (a worker that exited cannot release them itself). */
  releaseAll(owner: number): void {
    for (const [ticket, held] of this.tickets) {
      if (held.owner !== owner) continue;
      held.release();
      this.tickets.delete(ticket);
    }
  }

  private window({ name, limit, windowMs, maxKeys }: WindowSpec): FixedWindowLimiter {
    let limiter = this.windows.get(name);
    if (!limiter) this.windows.set(name, (limiter = new FixedWindowLimiter(limit, windowMs, maxKeys)));
    return limiter;
  }

  private pool({ name, slotsPerKey }: SlotSpec): SlotPool {
    let pool = this.pools.get(name);
    if (!pool) this.pools.set(name, (pool = new SlotPool(slotsPerKey)));
    return pool;
  }
}
