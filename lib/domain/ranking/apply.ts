import "server-only";
import { and, asc, desc, eq, isNotNull, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { milestones, referrals, signupMilestones, signups } from "@/db/schema";
import { beforePosition } from "@/lib/store/keyset";
import { dialectOf } from "@/lib/store/dialect";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";
import { transaction, writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { referralCountOf, topReferrers } from "../joining/referrals";
import { signupPosition } from "../joining/position";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { keyJustAhead, lineSignup, lineSlice, moveInLine } from "./line";
import { keyPlacesAhead } from "./move";
import { formatRankingRule, movingReferrals, POINT_MS, type RankingRule } from "./rule";
import { rankingRuleOf, storeRankingRule } from "./rules";

// A rule change stands every referrer again from its place in the order of joining, as if the new
// rule had always applied: `referrals:N` N places ahead per counted referral (up to the cap) of its
// own place among the waiting in joining order, `points:P` P hours earlier per counted referral; and
// the places of the milestones it reached (lib/domain/milestones) ahead of that, whatever the rule.
// Only referrers are written (one row each); reading a place later recomputes nothing. Each referrer
// is stood from the order of joining alone, so they may be stood in any order, in batches: the change
// is a short write storing the rule, then writes of RESTAND_BATCH referrers each, between which joins
// and every other write go on (200,000 referrers take about half a minute on one core).

/** Referrers stood per write of a rule change. */
export const RESTAND_BATCH = 2_000;

const FIRST_COME_KEY = { createdAt: valuePlaceholder("createdAt"), id: valuePlaceholder("id") };

function statements(db: AppDatabase) {
  return preparedOnce(db, "ranking.apply", () => ({
    referrerIds: db
      .selectDistinct({ id: referrals.referrerId })
      .from(referrals)
      .where(and(eq(referrals.waitlistId, valuePlaceholder("waitlistId")), eq(referrals.state, "counted")))
      .prepare(),
    moved: db
      .select({ id: signups.id })
      .from(signups)
      .where(and(eq(signups.waitlistId, valuePlaceholder("waitlistId")), isNotNull(signups.lineAt), eq(signups.status, "waiting")))
      .prepare(),
    milestonePlaces: db
      .select({ places: sql<number>`coalesce(sum(${milestones.places}), 0)` })
      .from(signupMilestones)
      .innerJoin(milestones, and(eq(milestones.waitlistId, signupMilestones.waitlistId), eq(milestones.referrals, signupMilestones.referrals)))
      .where(eq(signupMilestones.signupId, valuePlaceholder("id")))
      .prepare(),
    unmove: db.update(signups).set({ lineAt: null, linePos: null }).where(eq(signups.id, valuePlaceholder("id"))).prepare(),
    // The waiting signup `skip` places ahead of a place in joining order, and the one ahead of it.
    aheadInJoiningOrder: db
      .select({ at: sql<number>`${signups.createdAt}`, pos: signups.id, id: signups.id })
      .from(signups)
      .where(and(eq(signups.waitlistId, valuePlaceholder("waitlistId")), eq(signups.status, "waiting"), beforePosition(dialectOf(db), signups.createdAt, signups.id, FIRST_COME_KEY)))
      .orderBy(desc(signups.createdAt), desc(signups.id))
      .limit(2)
      .offset(sql.placeholder("skip"))
      .prepare(),
    firstInJoiningOrder: db
      .select({ at: sql<number>`${signups.createdAt}`, pos: signups.id, id: signups.id })
      .from(signups)
      .where(and(eq(signups.waitlistId, valuePlaceholder("waitlistId")), eq(signups.status, "waiting")))
      .orderBy(asc(signups.createdAt), asc(signups.id))
      .limit(1)
      .prepare(),
  }));
}

/** Who a rule change stands again: every signup of the waitlist with a counted referral, and every one standing moved. */
async function signupsToRestand(waitlistId: string, db: AppDatabase): Promise<number[]> {
  const prepared = statements(db);
  const ids = new Set((await prepared.referrerIds.all({ waitlistId })).map((row) => row.id));
  for (const { id } of await prepared.moved.all({ waitlistId })) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/** Stands these signups where the waitlist's rule puts them (inside a write transaction); those no longer waiting stay as they are. */
async function restand(waitlistId: string, rule: RankingRule, ids: readonly number[], db: AppDatabase): Promise<void> {
  const prepared = statements(db);
  const first = await prepared.firstInJoiningOrder.get({ waitlistId });
  for (const id of ids) {
    const signup = await lineSignup(id, db);
    if (!signup || signup.waitlistId !== waitlistId || signup.status !== "waiting") continue;
    if (signup.moved) await prepared.unmove.run({ id });
    const moving = movingReferrals(rule, await referralCountOf(id, db));
    const milestonePlaces = (await prepared.milestonePlaces.get({ id }))!.places;
    if (rule.kind === "points") {
      const key = { at: signup.createdAt - moving * rule.step * POINT_MS, pos: id };
      await moveInLine(id, (milestonePlaces > 0 && await keyPlacesAhead(waitlistId, { ...key, id }, milestonePlaces, db)) || key, db);
      continue;
    }
    const places = (rule.kind === "referrals" ? moving * rule.step : 0) + milestonePlaces;
    if (places === 0) continue;
    const [target, before] = await prepared.aheadInJoiningOrder.all({ waitlistId, createdAt: signup.createdAt, id, skip: places - 1 });
    const key = target ? keyJustAhead(target, before) : first && first.id !== id ? keyJustAhead(first, undefined) : undefined;
    if (key) await moveInLine(id, key, db);
  }
}

export interface PlaceMove {
  signupId: number;
  email: string;
  before: number;
  after: number;
}

const PREVIEW_REFERRERS = 5;
const PREVIEW_FRONT = 2;

/** Thrown to roll a preview's transaction back. */
const ROLL_BACK = new Error("preview rolled back");

/**
 * What changing the waitlist's rule to `rule` would do, exactly, without doing it: the places before
 * and after of its top referrers and of the first in line. The change runs whole in a transaction
 * that is rolled back (it holds the write lock as long as the change's batches together).
 */
export async function previewRankingRule(waitlistId: string, rule: RankingRule, db: AppDatabase = getDb()): Promise<PlaceMove[]> {
  const waitlist = await getWaitlistOrThrow(waitlistId, db);
  const emails = new Map<number, string>();
  const sample = [...(await lineSlice(waitlist.id, undefined, PREVIEW_FRONT, db)).map((key) => key.id), ...(await topReferrers(waitlist.id, PREVIEW_REFERRERS, db)).map((referrer) => referrer.id)];
  // Top referrers no longer waiting have no place: left out.
  const places = await Promise.all([...new Set(sample)].map(async (id) => [id, await signupPosition(waitlist.id, id, db)] as const));
  const before = new Map(places.filter((entry): entry is readonly [number, number] => entry[1] !== null));
  const ids = [...before.keys()];
  for (const id of ids) emails.set(id, (await db.select({ email: signups.email }).from(signups).where(eq(signups.id, id)).get())!.email);
  let moves: PlaceMove[] = [];
  try {
    await transaction(db, async () => {
      await restand(waitlist.id, rule, await signupsToRestand(waitlist.id, db), db);
      moves = await Promise.all(ids.map(async (id) => ({ signupId: id, email: emails.get(id)!, before: before.get(id)!, after: (await signupPosition(waitlist.id, id, db))! })));
      throw ROLL_BACK;
    });
  } catch (error) {
    if (error !== ROLL_BACK) throw error;
  }
  return moves;
}

/** A rule change under way: the rule stored (audited), and the batches of signups still to stand again. */
export interface RankingRuleChange {
  rule: RankingRule;
  batches: number[][];
}

/**
 * The first write of a rule change: stores the rule, audited (`waitlist.ranking`), and lists who must
 * stand again, in batches; nothing to do when the rule is the same. From here on every counted
 * referral moves by the new rule.
 */
export async function beginRankingRuleChange(waitlistId: string, rule: RankingRule, actor: AuditActor, db: AppDatabase = getDb()): Promise<RankingRuleChange> {
  return await writeTransaction(db, async (): Promise<RankingRuleChange> => {
    const waitlist = await getWaitlistOrThrow(waitlistId, db);
    const before = await rankingRuleOf(waitlist.id, db);
    if (formatRankingRule(before) === formatRankingRule(rule)) return { rule: before, batches: [] };
    await storeRankingRule(waitlist.id, rule, db);
    await recordAudit({ actor, action: "waitlist.ranking", target: waitlist.id, summary: `ranking ${formatRankingRule(rule)} (was ${formatRankingRule(before)})` }, db);
    const ids = await signupsToRestand(waitlist.id, db);
    return { rule, batches: Array.from({ length: Math.ceil(ids.length / RESTAND_BATCH) }, (_, index) => ids.slice(index * RESTAND_BATCH, (index + 1) * RESTAND_BATCH)) };
  });
}

/** One batch of a rule change, in a write of its own, by the rule stored now (a later change wins). */
export async function restandBatch(waitlistId: string, ids: readonly number[], db: AppDatabase = getDb()): Promise<void> {
  await writeTransaction(db, async () => await restand(waitlistId.toLowerCase(), await rankingRuleOf(waitlistId, db), ids, db));
}

/** The whole change, one write after another (the CLI, tests): the rule, then every batch. Returns the rule. */
export async function setRankingRule(waitlistId: string, rule: RankingRule, actor: AuditActor, db: AppDatabase = getDb()): Promise<RankingRule> {
  const change = await beginRankingRuleChange(waitlistId, rule, actor, db);
  for (const batch of change.batches) await restandBatch(waitlistId, batch, db);
  return change.rule;
}
