import "server-only";
import { and, asc, eq, notInArray } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { milestones } from "@/db/schema";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { formatMilestone, milestonesSchema, type Milestone } from "./milestone";
import { reachedMilestonesOf, reachNewMilestone } from "./reach";

function statements(db: AppDatabase) {
  return preparedOnce(db, "milestones.store", () => ({
    of: db
      .select({ referrals: milestones.referrals, label: milestones.label, places: milestones.places, message: milestones.message })
      .from(milestones)
      .where(eq(milestones.waitlistId, valuePlaceholder("waitlistId")))
      .orderBy(asc(milestones.referrals))
      .prepare(),
  }));
}

/** A waitlist's milestones, by step (none until an admin sets some). */
export async function milestonesOf(waitlistId: string, db: AppDatabase = getDb()): Promise<Milestone[]> {
  return await statements(db).of.all({ waitlistId: waitlistId.toLowerCase() });
}

/**
 * Replaces a waitlist's milestones with `lines` (each `<referrals>:<label>[:<places>[:<message>]]`),
 * in one transaction, audited (`waitlist.milestones`). A milestone is known by its step: one kept
 * keeps who reached it (its label, places and message may change; places already given stay given);
 * one removed forgets who reached it; one added is reached at once by everyone already past it.
 */
export async function setMilestones(waitlistId: string, lines: readonly string[], actor: AuditActor, db: AppDatabase = getDb()): Promise<{ milestones: Milestone[]; reachedNow: number }> {
  const list = milestonesSchema.parse(lines);
  return await writeTransaction(db, async () => {
    const waitlist = await getWaitlistOrThrow(waitlistId, db);
    const before = await milestonesOf(waitlist.id, db);
    if (JSON.stringify(before) === JSON.stringify(list)) return { milestones: before, reachedNow: 0 };
    const steps = list.map((milestone) => milestone.referrals);
    await db.delete(milestones)
      .where(and(eq(milestones.waitlistId, waitlist.id), steps.length === 0 ? undefined : notInArray(milestones.referrals, steps)))
      .run();
    // Labels may swap between steps: clear the kept rows' labels first (the unique index is on the label),
    // to a text no label can be (a control character; PostgreSQL refuses the NUL character in text).
    for (const milestone of list) await db.update(milestones).set({ label: `\u0001${milestone.referrals}` }).where(and(eq(milestones.waitlistId, waitlist.id), eq(milestones.referrals, milestone.referrals))).run();
    const now = Date.now();
    let reachedNow = 0;
    for (const milestone of list) {
      const kept = before.some((each) => each.referrals === milestone.referrals);
      const row = { waitlistId: waitlist.id, ...milestone };
      await db.insert(milestones).values(row).onConflictDoUpdate({ target: [milestones.waitlistId, milestones.referrals], set: row }).run();
      if (!kept) reachedNow += await reachNewMilestone(waitlist.id, milestone, now, db);
    }
    const summary = list.length === 0 ? "no milestones" : `milestones ${list.map(formatMilestone).join(" | ")}`;
    await recordAudit({ actor, action: "waitlist.milestones", target: waitlist.id, summary: `${summary.slice(0, 900)}${reachedNow > 0 ? ` (${reachedNow} reached at once)` : ""}` }, db);
    return { milestones: list, reachedNow };
  });
}

export interface PersonMilestone extends Milestone {
  /** When the signup reached it; null while it has not. */
  reachedAt: Date | null;
}

/** Every milestone of the signup's waitlist, by step, with when the signup reached it (the person's page, their data download). */
export async function personMilestones(waitlistId: string, signupId: number, db: AppDatabase = getDb()): Promise<PersonMilestone[]> {
  const reached = new Map((await reachedMilestonesOf(signupId, db)).map((milestone) => [milestone.referrals, milestone.reachedAt]));
  return (await milestonesOf(waitlistId, db)).map((milestone) => ({ ...milestone, reachedAt: reached.get(milestone.referrals) ?? null }));
}
