import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { preparedOnce } from "@/lib/sqlite/statements";

// Who referred whom (signups.referred_by, migration 0013): a signup that joined with another's
// referral code has `referral` true and names it. An erased referrer leaves `referred_by` null.

export interface Referrer {
  id: number;
  email: string;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "joining.referrals", () => ({
    count: db.$client.prepare<[number], { count: number }>("SELECT count(*) AS count FROM signups WHERE referred_by = ?"),
    referrer: db.$client.prepare<[number], Referrer>(
      "SELECT referrer.id, referrer.email FROM signups AS referred JOIN signups AS referrer ON referrer.id = referred.referred_by WHERE referred.id = ?",
    ),
    top: db.$client.prepare<[string, number], Referrer & { referrals: number }>(
      `SELECT referrer.id, referrer.email, counted.referrals FROM (
         SELECT referred_by, count(*) AS referrals FROM signups INDEXED BY signups_waitlist_referred_by_idx
         WHERE waitlist_id = ? AND referred_by IS NOT NULL GROUP BY referred_by
       ) AS counted JOIN signups AS referrer ON referrer.id = counted.referred_by
       ORDER BY counted.referrals DESC, referrer.id LIMIT ?`,
    ),
  }));
}

/** How many signups joined with this signup's referral code (and are still there). */
export function referralCountOf(signupId: number, db: AppDatabase = getDb()): number {
  return statements(db).count.get(signupId)!.count;
}

/** The signup whose referral code this one joined with, while it exists. */
export function referrerOf(signupId: number, db: AppDatabase = getDb()): Referrer | null {
  return statements(db).referrer.get(signupId) ?? null;
}

/** A waitlist's signups that referred the most, most first (ties: the earlier signup first). */
export function topReferrers(waitlistId: string, limit: number, db: AppDatabase = getDb()): (Referrer & { referrals: number })[] {
  return statements(db).top.all(waitlistId.toLowerCase(), limit);
}
