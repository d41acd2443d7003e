import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { MINUTE_MS } from "@/lib/core/time";
import { hitLimit, personKey, type LimitWindow } from "../limits/counter";

// The burst rule: more than JOIN_BURST_PER_CLIENT new signups of one waitlist from one client address
// within 10 minutes, and the ones past it are flagged for review (not refused: a busy office shares one
// address). Counted with the shared limit counters, keyed by a keyed hash of the client address, never
// the address itself.

export const BURST_WINDOW_MS = 10 * MINUTE_MS;

/** Counts one new signup from `clientAddress` (inside the join's transaction): whether it is past the burst. */
export async function isBurst(waitlistId: string, clientAddress: string | undefined, now = Date.now(), db: AppDatabase = getDb(), window: LimitWindow = { limit: env().JOIN_BURST_PER_CLIENT, windowMs: BURST_WINDOW_MS }): Promise<boolean> {
  if (clientAddress === undefined) return false;
  return await hitLimit(`join.burst ${waitlistId.toLowerCase()} ${await personKey(clientAddress, db)}`, window, now, db) !== undefined;
}
