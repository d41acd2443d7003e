import "server-only";
import { and, count, eq, gt, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { getDb, type AppDatabase } from "@/db/client";
import { referrals, signups, type REFERRAL_STATES } from "@/db/schema";
import { env } from "@/lib/core/env";
import { DAY_MS } from "@/lib/core/time";
import { preparedOnce, preparedSql, valuePlaceholder } from "@/lib/store/statements";
import { moveForCountedReferral } from "../ranking/move";
import { reachMilestones } from "../milestones/reach";
import { recordFlags } from "../fraud/flags";
import { isLookalike } from "./lookalike";

// Who referred whom (signups.referred_by, migration 0013): a signup that joined with another's
// referral code has `referral` true and names it. An erased referrer leaves `referred_by` null.
// Whether the referral counts for the referrer (table referrals, migration 0015) is decided when the
// signup joins and again when it confirms its address:
// - `lookalike`: the referrer's own mailbox again (./lookalike.ts): never counts;
// - `unverified`: the list verifies addresses and this one is not confirmed yet: counts once it is;
// - `daily_limit`: the referrer already has REFERRALS_PER_REFERRER_PER_DAY referrals counted in the
//   24 hours before: never counts (a confirmation later does not change that);
// - `flagged`: held for an admin's review (the signup was flagged: a disposable address, a burst,
//   lib/domain/fraud): counts once approved, since then;
// - `discounted`: an admin discounted the flagged signup: never counts;
// - `counted`, since `counted_at`. Referral counts and the top referrers count only these.
// A look-alike or a referral past the daily limit also flags the signup for review (an admin may
// approve it: it then counts).

export type ReferralState = (typeof REFERRAL_STATES)[number];

export interface Referrer {
  id: number;
  email: string;
}

/** What the dashboard says of a referral's state. */
export const REFERRAL_STATE_LABELS: Record<ReferralState, string> = {
  counted: "counted",
  unverified: "not counted yet: the address is not confirmed",
  lookalike: "not counted: the referrer's own address again",
  daily_limit: "not counted: the referrer's daily limit was reached",
  flagged: "not counted yet: held for review",
  discounted: "not counted: discounted by an admin",
};

const referred = alias(signups, "referred");
const referrer = alias(signups, "referrer");

function statements(db: AppDatabase) {
  return preparedOnce(db, "joining.referrals", () => ({
    count: db
      .select({ count: count() })
      .from(referrals)
      .where(and(eq(referrals.referrerId, valuePlaceholder("referrerId")), eq(referrals.state, "counted")))
      .prepare(),
    countedSince: db
      .select({ count: count() })
      .from(referrals)
      .where(and(eq(referrals.referrerId, valuePlaceholder("referrerId")), gt(referrals.countedAt, valuePlaceholder("since"))))
      .prepare(),
    referrer: db
      .select({ id: referrer.id, email: referrer.email })
      .from(referred)
      .innerJoin(referrer, eq(referrer.id, referred.referredBy))
      .where(eq(referred.id, valuePlaceholder("signupId")))
      .prepare(),
    state: db.select({ state: referrals.state }).from(referrals).where(eq(referrals.signupId, valuePlaceholder("signupId"))).prepare(),
    referrerEmail: db.select({ email: signups.email }).from(signups).where(eq(signups.id, valuePlaceholder("id"))).prepare(),
    insert: db
      .insert(referrals)
      .values({ signupId: valuePlaceholder("signupId"), referrerId: valuePlaceholder("referrerId"), waitlistId: valuePlaceholder("waitlistId"), state: valuePlaceholder("state"), countedAt: valuePlaceholder("countedAt") })
      .prepare(),
    unverified: db
      .select({ referrerId: referrals.referrerId, waitlistId: referrals.waitlistId })
      .from(referrals)
      .where(and(eq(referrals.signupId, valuePlaceholder("signupId")), eq(referrals.state, "unverified")))
      .prepare(),
    notCounted: db
      .select({ referrerId: referrals.referrerId, waitlistId: referrals.waitlistId })
      .from(referrals)
      .where(and(eq(referrals.signupId, valuePlaceholder("signupId")), ne(referrals.state, "counted")))
      .prepare(),
    settle: db
      .update(referrals)
      .set({ state: valuePlaceholder("state"), countedAt: valuePlaceholder("countedAt") })
      .where(eq(referrals.signupId, valuePlaceholder("signupId")))
      .prepare(),
    tally: db
      .select({ state: referrals.state, count: count() })
      .from(referrals)
      .where(and(eq(referrals.waitlistId, valuePlaceholder("waitlistId")), ne(referrals.state, "counted")))
      .groupBy(referrals.state)
      .prepare(),
    // In SQL: Drizzle's builder has no INDEXED BY.
    top: preparedSql<Referrer & { referrals: number }>(
      db,
      "joining.referrals.top",
      (d) => sql`SELECT referrer.id, referrer.email, counted.referrals FROM (
         SELECT referrer_id, count(*) AS referrals FROM referrals ${d.indexedBy("referrals_waitlist_state_idx")}
         WHERE waitlist_id = ${sql.placeholder("waitlistId")} AND state = 'counted' GROUP BY referrer_id
       ) AS counted JOIN signups AS referrer ON referrer.id = counted.referrer_id
       ORDER BY counted.referrals DESC, referrer.id LIMIT ${sql.placeholder("limit")}`,
    ),
  }));
}

/** counted, or daily_limit (and the signup flagged for review) when the referrer already has its day's referrals counted. */
async function countedOrOverLimit(referral: { signupId: number; referrerId: number; waitlistId: string }, now: number, db: AppDatabase): Promise<ReferralState> {
  if ((await statements(db).countedSince.get({ referrerId: referral.referrerId, since: now - DAY_MS }))!.count < env().REFERRALS_PER_REFERRER_PER_DAY) return "counted";
  await recordFlags(referral.signupId, referral.waitlistId, ["referral_limit"], now, db);
  return "daily_limit";
}

/**
 * Records the referral of a signup that just joined with `referrerId`'s code (inside the join's
 * transaction): whether it counts, or why not; `held` when the signup was flagged for review. A
 * look-alike or a referral past the daily limit flags the signup too. Returns the state.
 */
export async function recordReferral(referral: { signupId: number; referrerId: number; waitlistId: string; email: string; verifies: boolean; held: boolean }, now: number, db: AppDatabase = getDb()): Promise<ReferralState> {
  const prepared = statements(db);
  const referrerEmail = (await prepared.referrerEmail.get({ id: referral.referrerId }))?.email ?? "";
  const lookalike = isLookalike(referral.email, referrerEmail);
  if (lookalike) await recordFlags(referral.signupId, referral.waitlistId, ["lookalike"], now, db);
  const state: ReferralState = lookalike ? "lookalike" : referral.held ? "flagged" : referral.verifies ? "unverified" : await countedOrOverLimit(referral, now, db);
  await prepared.insert.run({ signupId: referral.signupId, referrerId: referral.referrerId, waitlistId: referral.waitlistId, state, countedAt: state === "counted" ? now : null });
  if (state === "counted") await referralCounted(referral.referrerId, referral.waitlistId, now, db);
  return state;
}

/** A signup confirmed its address (inside the confirmation's transaction): its unverified referral counts now, within the referrer's day. */
export async function settleReferralOnConfirm(signupId: number, now: number, db: AppDatabase = getDb()): Promise<void> {
  const prepared = statements(db);
  const pending = await prepared.unverified.get({ signupId });
  if (!pending) return;
  const state = await countedOrOverLimit({ signupId, referrerId: pending.referrerId, waitlistId: pending.waitlistId }, now, db);
  await prepared.settle.run({ state, countedAt: state === "counted" ? now : null, signupId });
  if (state === "counted") await referralCounted(pending.referrerId, pending.waitlistId, now, db);
}

/** An admin approved these signups (lib/domain/fraud/review.ts): their referrals count from `now`, whatever held them. */
export async function countReferralsOf(signupIds: readonly number[], now: number, db: AppDatabase = getDb()): Promise<void> {
  const prepared = statements(db);
  for (const signupId of signupIds) {
    const held = await prepared.notCounted.get({ signupId });
    if (!held) continue;
    await prepared.settle.run({ state: "counted", countedAt: now, signupId });
    await referralCounted(held.referrerId, held.waitlistId, now, db);
  }
}

/** Every referral that starts to count goes through here: the referrer's place follows its waitlist's ranking rule, and its milestones are reached, at once. */
async function referralCounted(referrerId: number, waitlistId: string, now: number, db: AppDatabase): Promise<void> {
  const counted = await referralCountOf(referrerId, db);
  await moveForCountedReferral(referrerId, counted, db);
  await reachMilestones(referrerId, waitlistId, counted, now, db);
}

/** How many referrals of this signup count (and are still there). */
export async function referralCountOf(signupId: number, db: AppDatabase = getDb()): Promise<number> {
  return (await statements(db).count.get({ referrerId: signupId }))!.count;
}

/** The signup whose referral code this one joined with, while it exists. */
export async function referrerOf(signupId: number, db: AppDatabase = getDb()): Promise<Referrer | null> {
  return await statements(db).referrer.get({ signupId }) ?? null;
}

/** Whether this signup's referral counts for its referrer, or why not; null when it has no referrer. */
export async function referralStateOf(signupId: number, db: AppDatabase = getDb()): Promise<ReferralState | null> {
  return (await statements(db).state.get({ signupId }))?.state ?? null;
}

/** A waitlist's signups with the most counted referrals, most first (ties: the earlier signup first). */
export async function topReferrers(waitlistId: string, limit: number, db: AppDatabase = getDb()): Promise<(Referrer & { referrals: number })[]> {
  return await statements(db).top.all({ waitlistId: waitlistId.toLowerCase(), limit });
}

export type NotCountedTally = Record<Exclude<ReferralState, "counted">, number>;

/** The dashboard's referrals panel: the top referrers and how many of the list's referrals do not count, by reason. */
export async function referralSummary(waitlistId: string, limit: number, db: AppDatabase = getDb()): Promise<{ top: (Referrer & { referrals: number })[]; notCounted: NotCountedTally }> {
  const notCounted: NotCountedTally = { unverified: 0, lookalike: 0, daily_limit: 0, flagged: 0, discounted: 0 };
  for (const { state, count } of await statements(db).tally.all({ waitlistId: waitlistId.toLowerCase() })) if (state !== "counted") notCounted[state] = count;
  return { top: await topReferrers(waitlistId, limit, db), notCounted };
}
