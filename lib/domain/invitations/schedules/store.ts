import "server-only";
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { invitationScheduleRuns, invitationSchedules } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../../audit/log";
import { parseFilterQuery } from "../../list-params";
import { getWaitlistOrThrow } from "../../waitlists/queries";
import { formatScheduleRule, scheduleRuleSchema, type ScheduleRule } from "./rule";

// A waitlist's paced invitations: add, pause, resume, remove (each audited as `waitlist.schedules`)
// and read. The runs are ./run.ts's.

export interface Schedule extends ScheduleRule {
  id: number;
  waitlistId: string;
  paused: boolean;
  pausedReason: string | null;
  createdAt: Date;
}

export interface ScheduleRun {
  slot: number;
  ranAt: number;
  invited: number;
}

/** A schedule's rule and state as an admin changes them. */
export const scheduleChangeSchema = z.strictObject({
  rule: z.string().max(2_000).pipe(scheduleRuleSchema).optional(),
  paused: z.boolean().optional(),
});
export type ScheduleChange = z.input<typeof scheduleChangeSchema>;

function toSchedule(row: typeof invitationSchedules.$inferSelect): Schedule {
  const guard = row.guardPercent !== null && row.guardDays !== null ? { percent: row.guardPercent, days: row.guardDays } : null;
  return { id: row.id, waitlistId: row.waitlistId, weekdays: row.weekdays, timeOfDay: row.timeOfDay, timeZone: row.timeZone, batch: row.batch, filter: row.filter, guard, paused: row.paused, pausedReason: row.pausedReason, createdAt: row.createdAt };
}

/** A rule whose filter /v1 would refuse is refused here, naming the filter's parameter. */
function checkedRule(rule: ScheduleRule): ScheduleRule {
  try {
    parseFilterQuery(rule.filter);
  } catch (error) {
    if (error instanceof AppError) throw new AppError("invalid_parameter", `The rule's filter: ${error.message}`, "rule");
    throw error;
  }
  return rule;
}

const ruleColumns = (rule: ScheduleRule) => ({ weekdays: rule.weekdays, timeOfDay: rule.timeOfDay, timeZone: rule.timeZone, batch: rule.batch, filter: rule.filter, guardPercent: rule.guard?.percent ?? null, guardDays: rule.guard?.days ?? null });

/** Every schedule of every waitlist (the scheduler's), or of one. */
export async function listSchedules(waitlistId?: string, db: AppDatabase = getDb()): Promise<Schedule[]> {
  const query = db.select().from(invitationSchedules);
  return (await (waitlistId === undefined ? query : query.where(eq(invitationSchedules.waitlistId, waitlistId.toLowerCase()))).orderBy(invitationSchedules.id).all()).map(toSchedule);
}

export async function getScheduleOrThrow(waitlistId: string, scheduleId: number, db: AppDatabase = getDb()): Promise<Schedule> {
  const row = await db.select().from(invitationSchedules).where(and(eq(invitationSchedules.waitlistId, waitlistId.toLowerCase()), eq(invitationSchedules.id, scheduleId))).get();
  if (!row) throw new AppError("not_found", `Waitlist ${waitlistId} has no schedule ${scheduleId}.`);
  return toSchedule(row);
}

/** A schedule's newest run, if any. */
export async function lastRunOf(scheduleId: number, db: AppDatabase = getDb()): Promise<ScheduleRun | undefined> {
  return await db.select({ slot: invitationScheduleRuns.slot, ranAt: invitationScheduleRuns.ranAt, invited: invitationScheduleRuns.invited }).from(invitationScheduleRuns).where(eq(invitationScheduleRuns.scheduleId, scheduleId)).orderBy(desc(invitationScheduleRuns.slot)).limit(1).get();
}

export async function addSchedule(actor: AuditActor, waitlistId: string, input: { rule: string }, db: AppDatabase = getDb()): Promise<Schedule> {
  const { rule } = z.strictObject({ rule: scheduleChangeSchema.shape.rule.unwrap() }).parse(input);
  checkedRule(rule);
  return await writeTransaction(db, async () => {
    const waitlist = await getWaitlistOrThrow(waitlistId, db);
    const row = await db.insert(invitationSchedules).values({ waitlistId: waitlist.id, ...ruleColumns(rule), createdAt: new Date() }).returning().get();
    await recordAudit({ actor, action: "waitlist.schedules", target: waitlist.id, summary: `added schedule ${row.id}: ${formatScheduleRule(rule)}` }, db);
    return toSchedule(row);
  });
}

/** Changes a schedule's rule, or pauses or resumes it (a resume clears the guard's reason). */
export async function changeSchedule(actor: AuditActor, waitlistId: string, scheduleId: number, input: ScheduleChange, db: AppDatabase = getDb()): Promise<Schedule> {
  const change = scheduleChangeSchema.parse(input);
  if (change.rule) checkedRule(change.rule);
  return await writeTransaction(db, async () => {
    const before = await getScheduleOrThrow(waitlistId, scheduleId, db);
    const words = [change.rule ? `rule ${formatScheduleRule(change.rule)}` : undefined, change.paused === undefined || change.paused === before.paused ? undefined : change.paused ? "paused" : "resumed"].filter(Boolean);
    if (words.length === 0) return before;
    const paused = change.paused ?? before.paused;
    await db.update(invitationSchedules)
      .set({ ...(change.rule && ruleColumns(change.rule)), paused, pausedReason: paused ? (change.paused ? null : before.pausedReason) : null })
      .where(eq(invitationSchedules.id, before.id))
      .run();
    await recordAudit({ actor, action: "waitlist.schedules", target: before.waitlistId, summary: `schedule ${before.id} ${words.join("; ")}` }, db);
    return getScheduleOrThrow(waitlistId, scheduleId, db);
  });
}

export async function removeSchedule(actor: AuditActor, waitlistId: string, scheduleId: number, db: AppDatabase = getDb()): Promise<Schedule> {
  return await writeTransaction(db, async () => {
    const schedule = await getScheduleOrThrow(waitlistId, scheduleId, db);
    await db.delete(invitationSchedules).where(eq(invitationSchedules.id, schedule.id)).run();
    await recordAudit({ actor, action: "waitlist.schedules", target: schedule.waitlistId, summary: `removed schedule ${schedule.id}: ${formatScheduleRule(schedule)}` }, db);
    return schedule;
  });
}
