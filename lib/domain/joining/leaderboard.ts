import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { maskEmail } from "../signups/email-mask";
import { topReferrers } from "./referrals";

// The public leaderboard of a waitlist that opted in (join setting `leaderboard`): its top referrers
// by counted referrals, each only as a masked address and a count; nothing else about anyone.

export const LEADERBOARD_SIZE = 10;

export interface LeaderboardRow {
  rank: number;
  /** maskEmail of the referrer's address. */
  referrer: string;
  referrals: number;
}

/** The leaderboard's rows, most referrals first (whether the waitlist shows it is its join setting `leaderboard`). */
export async function leaderboardRows(waitlistId: string, db: AppDatabase = getDb()): Promise<LeaderboardRow[]> {
  return (await topReferrers(waitlistId, LEADERBOARD_SIZE, db)).map((row, index) => ({ rank: index + 1, referrer: maskEmail(row.email), referrals: row.referrals }));
}
