import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { milestones, referrals, signupMilestones, signups } from "@/db/schema";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";
import { appendEvent, appendEventPerSignup } from "../events";
import { movePlacesUp } from "../ranking/move";
import type { Milestone } from "./milestone";

// Reaching a milestone: a row of signup_milestones, the event `signup.milestone_reached` (its body
// names the milestone by its referrals and label; the outbox sends it to webhooks and, from the
// milestone's message, emails the person) and the milestone's places, all in the transaction of the
// referral that counted. A milestone added later is reached at once by everyone already past it.

export interface ReachedMilestone extends Milestone {
  reachedAt: Date;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "milestones.reach", () => ({
    unreached: db
      .select({ referrals: milestones.referrals, label: milestones.label, places: milestones.places })
      .from(milestones)
      .where(
        and(
          eq(milestones.waitlistId, valuePlaceholder("waitlistId")),
          sql`${milestones.referrals} <= ${sql.placeholder("counted")}`,
          sql`not exists (select 1 from ${signupMilestones} where ${signupMilestones.signupId} = ${sql.placeholder("signupId")} and ${signupMilestones.referrals} = ${milestones.referrals})`,
        ),
      )
      .orderBy(asc(milestones.referrals))
      .prepare(),
    insert: db
      .insert(signupMilestones)
      .values({ signupId: valuePlaceholder("signupId"), waitlistId: valuePlaceholder("waitlistId"), referrals: valuePlaceholder("referrals"), reachedAt: valuePlaceholder("at") })
      .prepare(),
    reachedOf: db
      .select({ referrals: milestones.referrals, label: milestones.label, places: milestones.places, message: milestones.message, reachedAt: signupMilestones.reachedAt })
      .from(signupMilestones)
      .innerJoin(milestones, and(eq(milestones.waitlistId, signupMilestones.waitlistId), eq(milestones.referrals, signupMilestones.referrals)))
      .where(eq(signupMilestones.signupId, valuePlaceholder("signupId")))
      .orderBy(asc(signupMilestones.referrals))
      .prepare(),
    // Everyone with at least `referrals` counted referrals who has not reached this milestone yet.
    pastStep: db
      .select({ id: referrals.referrerId })
      .from(referrals)
      .innerJoin(signups, eq(signups.id, referrals.referrerId))
      .where(and(eq(referrals.waitlistId, valuePlaceholder("waitlistId")), eq(referrals.state, "counted")))
      .groupBy(referrals.referrerId)
      .having(
        and(
          sql`count(*) >= ${sql.placeholder("referrals")}`,
          sql`not exists (select 1 from ${signupMilestones} where ${signupMilestones.signupId} = ${referrals.referrerId} and ${signupMilestones.referrals} = ${sql.placeholder("referrals")})`,
        ),
      )
      .prepare(),
  }));
}

const payloadOf = (milestone: Pick<Milestone, "referrals" | "label">) => ({ milestone: { referrals: milestone.referrals, label: milestone.label } });

/** A signup of `waitlistId` now has `counted` counted referrals (inside that write's transaction): it reaches every milestone up to there it had not. */
export async function reachMilestones(signupId: number, waitlistId: string, counted: number, now: number, db: AppDatabase = getDb()): Promise<void> {
  const prepared = statements(db);
  for (const milestone of await prepared.unreached.all({ waitlistId, counted, signupId })) {
    await prepared.insert.run({ signupId, waitlistId, referrals: milestone.referrals, at: now });
    await appendEvent({ type: "signup.milestone_reached", waitlistId, signupId, payload: payloadOf(milestone) }, db, now);
    await movePlacesUp(signupId, milestone.places, db);
  }
}

/** A milestone just added to a waitlist (inside that write's transaction): everyone already past it reaches it now. Returns how many. */
export async function reachNewMilestone(waitlistId: string, milestone: Milestone, now: number, db: AppDatabase): Promise<number> {
  const prepared = statements(db);
  const ids = (await prepared.pastStep.all({ waitlistId, referrals: milestone.referrals })).map((row) => row.id);
  for (const signupId of ids) {
    await prepared.insert.run({ signupId, waitlistId, referrals: milestone.referrals, at: now });
    await movePlacesUp(signupId, milestone.places, db);
  }
  if (ids.length > 0) await appendEventPerSignup("signup.milestone_reached", waitlistId, JSON.stringify(ids), payloadOf(milestone), db, now);
  return ids.length;
}

/** The milestones a signup reached, by step. */
export async function reachedMilestonesOf(signupId: number, db: AppDatabase = getDb()): Promise<ReachedMilestone[]> {
  return await statements(db).reachedOf.all({ signupId });
}
