import "server-only";
import { env } from "@/lib/core/env";
import { HOUR_MS, MINUTE_MS } from "@/lib/core/time";

// The two limits on joins, in the memory of the process that takes them (like the /v1 limits,
// lib/http/limits.ts, each process counts alone): per address on a waitlist (someone submitting the
// form again and again, or a script trying addresses) and per waitlist (a flood). Fixed windows;
// past `maxKeys` counters the oldest is forgotten, so memory stays bounded (about 10 MB).

interface Window {
  limit: number;
  windowMs: number;
  maxKeys: number;
}

class Counter {
  private readonly counts = new Map<string, { start: number; count: number }>();

  constructor(private readonly window: () => Window) {}

  /** Counts one join for `key`: the seconds until its window ends when it is over the limit, else undefined. */
  hit(key: string, now: number): number | undefined {
    const { limit, windowMs, maxKeys } = this.window();
    let entry = this.counts.get(key);
    if (!entry || now - entry.start >= windowMs) {
      this.counts.delete(key);
      if (this.counts.size >= maxKeys) this.counts.delete(this.counts.keys().next().value!);
      entry = { start: now, count: 0 };
      this.counts.set(key, entry);
    }
    entry.count++;
    return entry.count > limit ? Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000)) : undefined;
  }
}

const perAddress = new Counter(() => ({ limit: env().JOINS_PER_ADDRESS_PER_HOUR, windowMs: HOUR_MS, maxKeys: 100_000 }));
const perWaitlist = new Counter(() => ({ limit: env().JOINS_PER_WAITLIST_PER_MINUTE, windowMs: MINUTE_MS, maxKeys: 10_000 }));

/** Counts one join attempt: undefined when allowed, else the seconds to wait and which limit refused it. */
export function joinLimitHit(waitlistId: string, email: string, now = Date.now()): { retryAfterSeconds: number; limit: "address" | "waitlist" } | undefined {
  const waitlistWait = perWaitlist.hit(waitlistId, now);
  if (waitlistWait !== undefined) return { retryAfterSeconds: waitlistWait, limit: "waitlist" };
  const addressWait = perAddress.hit(`${waitlistId} ${email.trim().toLowerCase()}`, now);
  if (addressWait !== undefined) return { retryAfterSeconds: addressWait, limit: "address" };
  return undefined;
}
