import "server-only";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signupFlags, signups } from "@/db/schema";
import { dialectOf } from "@/lib/store/dialect";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";
import { FLAG_REASONS, type FlagReason } from "./reasons";

// The flags that hold a signup for review (table signup_flags, migration 0017): one row per signup and
// rule, written in the join's (or the confirmation's) transaction, `pending` until an admin decides
// (./review.ts). They go with the signup when it is erased (ON DELETE CASCADE).

/** How many flagged signups the review view lists at once, the oldest first. */
export const REVIEW_PAGE = 200;

export interface FlaggedSignup {
  id: number;
  email: string;
  createdAt: Date;
  reasons: FlagReason[];
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "fraud.flags", () => ({
    insert: db
      .insert(signupFlags)
      .values({ signupId: valuePlaceholder("signupId"), waitlistId: valuePlaceholder("waitlistId"), reason: valuePlaceholder("reason"), flaggedAt: valuePlaceholder("at") })
      .onConflictDoNothing()
      .prepare(),
    ofSignup: db.select({ reason: signupFlags.reason, decision: signupFlags.decision }).from(signupFlags).where(eq(signupFlags.signupId, valuePlaceholder("signupId"))).prepare(),
    pending: db
      .select({ id: signups.id, email: signups.email, createdAt: signups.createdAt, reasons: sql<string>`${dialectOf(db).jsonGroupArray(signupFlags.reason)}` })
      .from(signupFlags)
      .innerJoin(signups, eq(signups.id, signupFlags.signupId))
      .where(and(eq(signupFlags.waitlistId, valuePlaceholder("waitlistId")), eq(signupFlags.decision, "pending")))
      .groupBy(signups.id)
      .orderBy(asc(signups.createdAt), asc(signups.id))
      .limit(sql.placeholder("limit"))
      .prepare(),
    pendingCounts: db
      .select({ reason: signupFlags.reason, count: count() })
      .from(signupFlags)
      .where(and(eq(signupFlags.waitlistId, valuePlaceholder("waitlistId")), eq(signupFlags.decision, "pending")))
      .groupBy(signupFlags.reason)
      .prepare(),
  }));
}

/** Flags a signup for each reason (inside the write that found them); a reason it already has is kept as it was. */
export async function recordFlags(signupId: number, waitlistId: string, reasons: readonly FlagReason[], at: number, db: AppDatabase = getDb()): Promise<void> {
  const insert = statements(db).insert;
  for (const reason of reasons) await insert.run({ signupId, waitlistId: waitlistId.toLowerCase(), reason, at });
}

/** A signup's flags and what was decided of each. */
export async function flagsOf(signupId: number, db: AppDatabase = getDb()): Promise<{ reason: FlagReason; decision: "pending" | "approved" | "discounted" }[]> {
  return await statements(db).ofSignup.all({ signupId });
}

/** The signups of a waitlist waiting for review, the oldest first, each with its reasons. */
export async function pendingReview(waitlistId: string, limit = REVIEW_PAGE, db: AppDatabase = getDb()): Promise<FlaggedSignup[]> {
  return (await statements(db)
    .pending.all({ waitlistId: waitlistId.toLowerCase(), limit }))
    .map((row) => ({ ...row, reasons: FLAG_REASONS.filter((reason) => (JSON.parse(row.reasons) as string[]).includes(reason)) }));
}

/** The flag facet: how many flags of each reason wait for review (a signup may have several). */
export async function pendingFlagCounts(waitlistId: string, db: AppDatabase = getDb()): Promise<Record<FlagReason, number>> {
  const counts = Object.fromEntries(FLAG_REASONS.map((reason) => [reason, 0])) as Record<FlagReason, number>;
  for (const { reason, count } of await statements(db).pendingCounts.all({ waitlistId: waitlistId.toLowerCase() })) counts[reason] = count;
  return counts;
}
