import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { HOUR_MS } from "@/lib/core/time";
import { mailboxOf } from "../joining/lookalike";
import { hitLimit, personKey } from "../limits/counter";

// The emails a stranger can make the app send to an address by typing it in (a join's confirmation,
// its resends, the "you are already on the list" email): at most EMAILS_PER_ADDRESS_PER_HOUR per
// mailbox (plus tags and Gmail's dots folded, ../joining/lookalike.ts) across all waitlists, counted
// in SQLite under a keyed hash of the mailbox (../limits/counter.ts), never the address itself.

/** The reason kept on an email that was not sent because its address had its hour's emails. */
export const EMAIL_OVER_ADDRESS_LIMIT = "not sent: this address was sent its most emails for this hour (EMAILS_PER_ADDRESS_PER_HOUR)";

export type PersonEmailAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one email to `address` (call it only for an email about to be queued): allowed while the
 * address has had at most EMAILS_PER_ADDRESS_PER_HOUR this hour, on any waitlist; else the seconds
 * until its hour ends. A write: inside the caller's transaction.
 */
export async function personEmailAllowed(address: string, now = Date.now(), db: AppDatabase = getDb()): Promise<PersonEmailAllowance> {
  const wait = await hitLimit(`email.person ${await personKey(mailboxOf(address), db)}`, { limit: env().EMAILS_PER_ADDRESS_PER_HOUR, windowMs: HOUR_MS }, now, db);
  return wait === undefined ? { allowed: true } : { allowed: false, retryAfterSeconds: wait };
}
