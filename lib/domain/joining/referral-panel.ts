import "server-only";
import { and, count, eq, sum } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { referrals, signupCounts } from "@/db/schema";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";
import { referralSummary, type NotCountedTally, type Referrer } from "./referrals";

// The dashboard's referrals panel: referralSummary (the top referrers, the referrals that do not
// count by reason) with the counted total, and the signups flagged as referred that name no
// referrer: imported with the `referral` flag, or whose referrer was erased. Both from indexes and
// the signup_counts rows, never a scan of the list.

export interface ReferralPanel {
  top: (Referrer & { referrals: number })[];
  notCounted: NotCountedTally;
  counted: number;
  flaggedWithoutReferrer: number;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "joining.referralPanel", () => ({
    counted: db
      .select({ count: count() })
      .from(referrals)
      .where(and(eq(referrals.waitlistId, valuePlaceholder("waitlistId")), eq(referrals.state, "counted")))
      .prepare(),
    flagged: db
      .select({ count: sum(signupCounts.count).mapWith(Number) })
      .from(signupCounts)
      .where(and(eq(signupCounts.waitlistId, valuePlaceholder("waitlistId")), eq(signupCounts.referral, true)))
      .prepare(),
  }));
}

export async function referralPanel(waitlistId: string, limit: number, db: AppDatabase = getDb()): Promise<ReferralPanel> {
  const id = waitlistId.toLowerCase();
  const prepared = statements(db);
  const summary = await referralSummary(id, limit, db);
  const counted = (await prepared.counted.get({ waitlistId: id }))!.count;
  // Every referral row names a referrer (it goes with it), so the rest of the flagged signups name none.
  const withReferrer = counted + Object.values(summary.notCounted).reduce((total, count) => total + count, 0);
  const flagged = (await prepared.flagged.get({ waitlistId: id }))?.count ?? 0;
  return { ...summary, counted, flaggedWithoutReferrer: Math.max(0, flagged - withReferrer) };
}
