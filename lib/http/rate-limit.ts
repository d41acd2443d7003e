import { createHash } from "node:crypto";

/** What a limiter says about one key after (or without) counting a hit. */
export interface LimitState {
  allowed: boolean;
  limit: number;
  /** Hits left in the current window (0 when exhausted). */
  remaining: number;
  /** Whole seconds until the window resets (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/** Longer keys are stored as their SHA-256 (50 characters), which keeps distinct keys distinct. */
export const MAX_KEY_LENGTH = 64;

function storedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash("sha256").update(key).digest("base64url")}`;
}

// A short key cut from a long string (an address from a 16 KB X-Forwarded-For header) can be a V8
// "sliced string" that keeps the whole original alive: keep a copy of its characters instead.
function ownCopy(key: string): string {
  return Buffer.from(key, "utf16le").toString("utf16le");
}

/**
 * A fixed-window counter per key (an API key id, a client address), in memory (lib/http/limits.ts
 * keeps the process's).
 * A window opens at a key's first hit and lasts `windowMs`; the draft RateLimit header's `t` is
 * the time left in it. At most twice the limit can pass around a window boundary, which is the
 * usual price of a fixed window and fine for abuse protection. Memory stays bounded by the number
 * of keys and by their length: expired windows are swept when the map is full, past `maxKeys` the
 * oldest windows are dropped, and a key longer than MAX_KEY_LENGTH is stored as its SHA-256.
 * Worst case, measured (100,000 keys of 64 two-byte characters): 223 bytes per key, so a limiter
 * of 100,000 keys holds about 22 MB, whatever its callers pass (16 KB keys, slices of them).
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 50_000,
  ) {}

  /** Counts one hit for `key`: `allowed` is false once the limit is used up in this window. */
  hit(key: string, now = Date.now()): LimitState {
    const stored = storedKey(key);
    const window = this.current(stored, now) ?? this.open(stored, now);
    window.count += 1;
    return this.state(window, now);
  }

  /** The state of `key` without counting a hit. */
  peek(key: string, now = Date.now()): LimitState {
    return this.state(this.current(storedKey(key), now) ?? { start: now, count: 0 }, now);
  }

  /** Whether `key` has used up its limit in the current window. */
  isExhausted(key: string, now = Date.now()): boolean {
    return (this.current(storedKey(key), now)?.count ?? 0) >= this.limit;
  }

  get size(): number {
    return this.windows.size;
  }

  private current(stored: string, now: number): Window | undefined {
    const window = this.windows.get(stored);
    if (window && now - window.start < this.windowMs) return window;
    if (window) this.windows.delete(stored);
    return undefined;
  }

  private open(stored: string, now: number): Window {
    if (this.windows.size >= this.maxKeys) this.evict(now);
    const window = { start: now, count: 0 };
    this.windows.set(ownCopy(stored), window);
    return window;
  }

  // Insertion order is window-start order, so expired windows sit at the front.
  private evict(now: number) {
    for (const [key, window] of this.windows) {
      if (now - window.start < this.windowMs && this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }

  private state(window: Window, now: number): LimitState {
    return {
      allowed: window.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
      windowSeconds: Math.round(this.windowMs / 1000),
    };
  }
}
