import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { MINUTE_MS } from "@/lib/core/time";
import { readCounters, type CounterBatch } from "../limits/counter-batch";
import { personKey, type LimitWindow } from "../limits/counter";

// The burst rule: more than JOIN_BURST_PER_CLIENT new signups of one waitlist from one client address
// within 10 minutes, and the ones past it are flagged for review (not refused: a busy office shares one
// address). Counted with the shared limit counters, keyed by a keyed hash of the client address, never
// the address itself.

export const BURST_WINDOW_MS = 10 * MINUTE_MS;

const burstWindow = (): LimitWindow => ({ limit: env().JOIN_BURST_PER_CLIENT, windowMs: BURST_WINDOW_MS });

/** The counter of new signups of the waitlist from the client address. */
export async function burstKey(waitlistId: string, clientAddress: string, db: AppDatabase): Promise<string> {
  return `join.burst ${waitlistId.toLowerCase()} ${await personKey(clientAddress, db)}`;
}

/** Counts one new signup on a batch's counters (`key` from burstKey): whether it is past the burst. */
export function hitBurst(counters: CounterBatch, key: string, window = burstWindow()): boolean {
  return counters.hit(key, window) !== undefined;
}

/** Counts one new signup from `clientAddress` (inside the join's transaction): whether it is past the burst. */
export async function isBurst(waitlistId: string, clientAddress: string | undefined, now = Date.now(), db: AppDatabase = getDb(), window = burstWindow()): Promise<boolean> {
  if (clientAddress === undefined) return false;
  const key = await burstKey(waitlistId, clientAddress, db);
  const counters = await readCounters([key], now, db);
  const burst = hitBurst(counters, key, window);
  await counters.write();
  return burst;
}
