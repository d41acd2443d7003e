import "server-only";
import { and, asc, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { milestones, referrals, signupMilestones, signups } from "@/db/schema";
import { beforePosition } from "@/lib/sqlite/keyset";
import { preparedOnce, valuePlaceholder } from "@/lib/sqlite/statements";
import { recordAudit, type AuditActor } from "../audit/log";
import { signupPosition } from "../joining/position";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { keyJustAhead, lineSlice, moveInLine } from "./line";
import { keyPlacesAhead } from "./move";
import { formatRankingRule, movingReferrals, POINT_MS, type RankingRule } from "./rule";
import { rankingRuleOf, storeRankingRule } from "./rules";

// A rule change stands every referrer again from its place in the order of joining, as if the new
// rule had always applied: `referrals:N` N places ahead per counted referral (up to the cap) of its
// own place among the waiting in joining order, `points:P` P hours earlier per counted referral; and
// the places of the milestones it reached (lib/domain/milestones) ahead of that, whatever the rule.
// Only referrers are written (one row each), in the change's transaction; reading a place later
// recomputes nothing.

const FIRST_COME_KEY = { createdAt: valuePlaceholder("createdAt"), id: valuePlaceholder("id") };

function statements(db: AppDatabase) {
  return preparedOnce(db, "ranking.apply", () => ({
    referrers: db
      .select({
        id: signups.id,
        createdAt: sql<number>`${signups.createdAt}`,
        counted: count(),
        places: sql<number>`(select coalesce(sum(${milestones.places}), 0) from ${signupMilestones} join ${milestones} on ${milestones.waitlistId} = ${signupMilestones.waitlistId} and ${milestones.referrals} = ${signupMilestones.referrals} where ${signupMilestones.signupId} = ${signups.id})`,
      })
      .from(referrals)
      .innerJoin(signups, eq(signups.id, referrals.referrerId))
      .where(and(eq(referrals.waitlistId, valuePlaceholder("waitlistId")), eq(referrals.state, "counted"), eq(signups.status, "waiting")))
      .groupBy(referrals.referrerId)
      .prepare(),
    moved: db
      .select({ id: signups.id })
      .from(signups)
      .where(and(eq(signups.waitlistId, valuePlaceholder("waitlistId")), isNotNull(signups.lineAt), eq(signups.status, "waiting")))
      .prepare(),
    unmove: db.update(signups).set({ lineAt: null, linePos: null }).where(eq(signups.id, valuePlaceholder("id"))).prepare(),
    // The waiting signup `skip` places ahead of a place in joining order, and the one ahead of it.
    aheadInJoiningOrder: db
      .select({ at: sql<number>`${signups.createdAt}`, pos: signups.id, id: signups.id })
      .from(signups)
      .where(and(eq(signups.waitlistId, valuePlaceholder("waitlistId")), eq(signups.status, "waiting"), beforePosition(signups.createdAt, signups.id, FIRST_COME_KEY)))
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

/** Stands every waiting referrer of the waitlist where `rule` puts it (inside a write transaction). */
function restandReferrers(waitlistId: string, rule: RankingRule, db: AppDatabase): void {
  const prepared = statements(db);
  for (const { id } of prepared.moved.all({ waitlistId })) prepared.unmove.run({ id });
  const first = prepared.firstInJoiningOrder.get({ waitlistId });
  for (const referrer of prepared.referrers.all({ waitlistId })) {
    const moving = movingReferrals(rule, referrer.counted);
    if (rule.kind === "points") {
      const key = { at: referrer.createdAt - moving * rule.step * POINT_MS, pos: referrer.id };
      moveInLine(referrer.id, (referrer.places > 0 && keyPlacesAhead(waitlistId, { ...key, id: referrer.id }, referrer.places, db)) || key, db);
      continue;
    }
    const places = (rule.kind === "referrals" ? moving * rule.step : 0) + referrer.places;
    if (places === 0) continue;
    const [target, before] = prepared.aheadInJoiningOrder.all({ waitlistId, createdAt: referrer.createdAt, id: referrer.id, skip: places - 1 });
    const key = target ? keyJustAhead(target, before) : first && first.id !== referrer.id ? keyJustAhead(first, undefined) : undefined;
    if (key) moveInLine(referrer.id, key, db);
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
 * and after of its top referrers and of the first in line. The change runs in a transaction that is
 * rolled back.
 */
export function previewRankingRule(waitlistId: string, rule: RankingRule, db: AppDatabase = getDb()): PlaceMove[] {
  const waitlist = getWaitlistOrThrow(waitlistId, db);
  const emails = new Map<number, string>();
  const sample = [...lineSlice(waitlist.id, undefined, PREVIEW_FRONT, db).map((key) => key.id), ...statements(db).referrers.all({ waitlistId: waitlist.id }).sort((a, b) => b.counted - a.counted || a.id - b.id).slice(0, PREVIEW_REFERRERS).map((referrer) => referrer.id)];
  const ids = [...new Set(sample)];
  for (const id of ids) emails.set(id, db.select({ email: signups.email }).from(signups).where(eq(signups.id, id)).get()!.email);
  const before = new Map(ids.map((id) => [id, signupPosition(waitlist.id, id, db)!]));
  let moves: PlaceMove[] = [];
  try {
    db.$client.transaction(() => {
      restandReferrers(waitlist.id, rule, db);
      moves = ids.map((id) => ({ signupId: id, email: emails.get(id)!, before: before.get(id)!, after: signupPosition(waitlist.id, id, db)! }));
      throw ROLL_BACK;
    })();
  } catch (error) {
    if (error !== ROLL_BACK) throw error;
  }
  return moves;
}

/**
 * Sets a waitlist's ranking rule and stands its referrers where the rule puts them, in one
 * transaction, audited (`waitlist.ranking`). Returns the rule; nothing changes when it is the same.
 */
export function setRankingRule(waitlistId: string, rule: RankingRule, actor: AuditActor, db: AppDatabase = getDb()): RankingRule {
  return db.$client
    .transaction(() => {
      const waitlist = getWaitlistOrThrow(waitlistId, db);
      const before = rankingRuleOf(waitlist.id, db);
      if (formatRankingRule(before) === formatRankingRule(rule)) return before;
      storeRankingRule(waitlist.id, rule, db);
      restandReferrers(waitlist.id, rule, db);
      recordAudit({ actor, action: "waitlist.ranking", target: waitlist.id, summary: `ranking ${formatRankingRule(rule)} (was ${formatRankingRule(before)})` }, db);
      return rule;
    })
    .immediate();
}
