/**
 * An in-memory sliding-window counter per key (a client address). Memory stays bounded: entries
 * older than the window are dropped, and past `maxKeys` the least recently seen key is evicted.
 * In memory on purpose: one server process serves the dashboard, and a restart only forgets counts.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  private recent(key: string, now: number): number[] {
    const times = (this.hits.get(key) ?? []).filter((time) => time > now - this.windowMs);
    if (times.length === 0) this.hits.delete(key);
    else this.hits.set(key, times);
    return times;
  }

  /** Milliseconds until `key` may try again, or 0 when it is under the limit. */
  retryAfterMs(key: string, now = Date.now()): number {
    const times = this.recent(key, now);
    if (times.length < this.limit) return 0;
    return times[times.length - this.limit]! + this.windowMs - now;
  }

  record(key: string, now = Date.now()): void {
    const times = this.recent(key, now);
    this.hits.delete(key);
    this.hits.set(key, [...times, now]);
    if (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }
}

export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 10 * 60 * 1000;

// Next.js may evaluate a module once per route bundle: keep one limiter per process.
const holder = globalThis as typeof globalThis & { __signInLimiter?: SlidingWindowLimiter };

/** Failed sign-ins per client address: 10 per 10 minutes. */
export function signInLimiter(): SlidingWindowLimiter {
  holder.__signInLimiter ??= new SlidingWindowLimiter(SIGN_IN_FAILURE_LIMIT, SIGN_IN_WINDOW_MS);
  return holder.__signInLimiter;
}

/**
 * The client address: the last X-Forwarded-For entry. Next's server fills the header with the
 * socket address when the request has none; behind one reverse proxy that appends the address it
 * saw (nginx `$proxy_add_x_forwarded_for`, Caddy), the last entry is the one the client cannot forge.
 */
export function clientAddress(forwardedFor: string | null): string {
  const last = forwardedFor?.split(",").at(-1)?.trim();
  return last || "unknown";
}
