import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { preparedSql } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, SCHEDULER_ACTOR } from "../../audit/log";
import { appendEvent } from "../../events";
import { parseFilterQuery } from "../../list-params";
import { getSignup } from "../../signups/queries";
import { applyStatusAction, firstIdsInState } from "../../signups/transitions";
import { formatScheduleRule } from "./rule";
import { latestSlot, nextSlot } from "./slots";
import { listSchedules, type Schedule } from "./store";

// A schedule's run for a slot: "invite the next N in line of its filter", the same status action as
// the dashboard's and /v1's (lib/domain/signups/transitions.ts: the statuses, one signup.invited
// each, the audit row), plus one `invitations.batch_sent` event and one audit row naming the
// schedule, in one transaction that first claims the (schedule, slot) row: whichever process gets
// there first runs it, exactly once. Only the latest slot at or before `now` is looked at, so after
// downtime the missed slots make one catch-up run, never one each.

const placeholder = sql.placeholder;

function statements(db: AppDatabase) {
  return {
    // In SQL: INSERT … ON CONFLICT DO NOTHING whose `changes` says who claimed it.
    claim: preparedSql(db, "schedules.run.claim", () =>
      sql`INSERT INTO invitation_schedule_runs (schedule_id, slot, ran_at, invited) VALUES (${placeholder("scheduleId")}, ${placeholder("slot")}, ${placeholder("at")}, 0) ON CONFLICT DO NOTHING`,
    ),
    ran: preparedSql<{ found: number }>(db, "schedules.run.ran", () => sql`SELECT 1 AS found FROM invitation_schedule_runs WHERE schedule_id = ${placeholder("scheduleId")} AND slot = ${placeholder("slot")}`),
    invited: preparedSql(db, "schedules.run.invited", () => sql`UPDATE invitation_schedule_runs SET invited = ${placeholder("invited")} WHERE schedule_id = ${placeholder("scheduleId")} AND slot = ${placeholder("slot")}`),
    pause: preparedSql(db, "schedules.run.pause", () => sql`UPDATE invitation_schedules SET paused = 1, paused_reason = ${placeholder("reason")} WHERE id = ${placeholder("id")}`),
    // The invitations of the last days and how many of them are completed now. In SQL: the events after
    // the newest one before `since`, walked by events_waitlist_idx from the newest back.
    redeemed: preparedSql<{ invited: number; completed: number | null }>(db, "schedules.run.redeemed", (d) =>
      sql`SELECT count(*) AS invited, ${d.countTrue(sql`signups.status = 'completed'`)} AS completed FROM events LEFT JOIN signups ON signups.id = events.signup_id
       WHERE events.waitlist_id = ${placeholder("waitlistId")} AND events.type = 'signup.invited'
         AND events.id > coalesce((SELECT id FROM events WHERE waitlist_id = ${placeholder("waitlistId")} AND created_at < ${placeholder("since")} ORDER BY id DESC LIMIT 1), 0)`,
    ),
  };
}

export interface ScheduledRun {
  scheduleId: number;
  waitlistId: string;
  slot: string;
  /** How many it invited; 0 when its guard paused it instead. */
  invited: number;
  /** How long its transaction took. */
  ms: number;
  paused?: string;
}

/** Why the guard pauses a schedule now, or undefined when it lets it run. */
async function guardReason(schedule: Schedule, now: number, db: AppDatabase): Promise<string | undefined> {
  if (!schedule.guard) return undefined;
  const { invited, completed } = (await statements(db).redeemed.get({ waitlistId: schedule.waitlistId, since: now - schedule.guard.days * DAY_MS }))!;
  if (invited === 0) return undefined;
  const percent = (100 * (completed ?? 0)) / invited;
  if (percent >= schedule.guard.percent) return undefined;
  return `its guard: ${Math.floor(percent)}% of the ${invited} invitations of the last ${schedule.guard.days} days were redeemed (under ${schedule.guard.percent}%)`;
}

/** Runs one schedule for `slot` unless a process already did; undefined when it was claimed before. */
async function runSlot(schedule: Schedule, slot: number, now: number, db: AppDatabase): Promise<ScheduledRun | undefined> {
  const prepared = statements(db);
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return await writeTransaction<ScheduledRun | undefined>(db, async () => {
    if ((await prepared.claim.run({ scheduleId: schedule.id, slot, at: now })).changes === 0) return undefined;
    const base = { scheduleId: schedule.id, waitlistId: schedule.waitlistId, slot: new Date(slot).toISOString() };
    const reason = await guardReason(schedule, now, db);
    if (reason) {
      await prepared.pause.run({ id: schedule.id, reason });
      await recordAudit({ actor: SCHEDULER_ACTOR, action: "waitlist.schedules", target: schedule.waitlistId, summary: `schedule ${schedule.id} paused by ${reason}` }, db);
      return { ...base, invited: 0, ms: took(), paused: reason };
    }
    const scope = { ...parseFilterQuery(schedule.filter), waitlistId: schedule.waitlistId };
    const { changed } = await applyStatusAction(SCHEDULER_ACTOR, { action: "invite", selection: { scope, limit: schedule.batch } }, db);
    await prepared.invited.run({ scheduleId: schedule.id, slot, invited: changed });
    await appendEvent({ type: "invitations.batch_sent", waitlistId: schedule.waitlistId, payload: { schedule_id: schedule.id, slot: base.slot, invited: changed, batch: schedule.batch } }, db, now);
    await recordAudit({ actor: SCHEDULER_ACTOR, action: "signups.scheduled_invite", target: schedule.waitlistId, summary: `schedule ${schedule.id} (${formatScheduleRule(schedule)}) invited ${changed} for its slot ${base.slot}` }, db);
    return { ...base, invited: changed, ms: took() };
  });
}

/** Runs every schedule whose latest slot at or before `now` has not run (and came after the schedule was made). */
export async function runDueSchedules(now: number, db: AppDatabase = getDb()): Promise<ScheduledRun[]> {
  const runs: ScheduledRun[] = [];
  for (const schedule of await listSchedules(undefined, db)) {
    if (schedule.paused) continue;
    const slot = latestSlot(schedule, now);
    if (slot === undefined || slot < schedule.createdAt.getTime()) continue;
    // Most ticks find the slot run: a read says so without the write lock.
    if (await statements(db).ran.get({ scheduleId: schedule.id, slot })) continue;
    const run = await runSlot(schedule, slot, now, db);
    if (run) runs.push(run);
  }
  return runs;
}

export interface SchedulePreview {
  /** When the next run is due (after `now`); null while paused. */
  nextRunAt: string | null;
  /** How many the next run would invite now (at most its batch). */
  count: number;
  /** The first few of them, in line order. */
  first: { id: number; email: string }[];
}

/** Who the schedule's next run would take, were it now. */
export async function previewSchedule(schedule: Schedule, now = Date.now(), db: AppDatabase = getDb(), few = 5): Promise<SchedulePreview> {
  const scope = { ...parseFilterQuery(schedule.filter), waitlistId: schedule.waitlistId };
  const ids = await firstIdsInState("invite", scope, schedule.batch, db);
  const next = schedule.paused ? undefined : nextSlot(schedule, now);
  return {
    nextRunAt: next === undefined ? null : new Date(next).toISOString(),
    count: ids.length,
    first: await Promise.all(ids.slice(0, few).map(async (id) => ({ id, email: (await getSignup(schedule.waitlistId, id, db))!.email }))),
  };
}
