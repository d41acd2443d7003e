import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { expireInvitations } from "../invitations/expire";
import { remindInvitations } from "../invitations/remind";
import { runDueSchedules, type ScheduledRun } from "../invitations/schedules/run";

// The scheduler's work, as of an instant: the invitations that expire, the reminders due, the
// paced invitations' due slots. The
// server's scheduler thread (lib/server/scheduler-thread.ts) runs it every SCHEDULER_TICK_MS at
// the clock's time; `waitlists scheduler run --at <instant>` runs it once at any instant (an
// operator's "run what is due now", and the tests' clock). Each part is idempotent in its own
// transactions, so a run repeated, or two processes running at once, change nothing twice.

/** How often the server's scheduler looks for due work. */
export const SCHEDULER_TICK_MS = 15_000;
/** The scheduler's lease in delivery_sender (row `scheduler`): renewed every tick, so it outlasts two. */
export const SCHEDULER_LEASE_MS = 3 * SCHEDULER_TICK_MS;

export interface DueWorkDone {
  /** The instant the work was due at, ISO 8601 UTC. */
  at: string;
  /** Invitations reminded (each one `signup.invitation_reminder` event, and its email). */
  reminded: number;
  /** Invitations expired (each one `signup.invitation_expired` event). */
  expired: number;
  /** The paced invitations' runs for their due slots (each one `invitations.batch_sent` event). */
  scheduled: ScheduledRun[];
}

/** Runs everything due at `now`: reminders first (an invitation reminded and expired in one run got its reminder when it was due), then expiries, then the schedules' due slots. */
export async function runDueWork(now: number, db: AppDatabase = getDb()): Promise<DueWorkDone> {
  const reminded = await remindInvitations(now, db);
  const expired = await expireInvitations(now, db);
  const scheduled = await runDueSchedules(now, db);
  return { at: new Date(now).toISOString(), reminded, expired, scheduled };
}

/** "2026-11-28T20:00:00.000Z: 3 reminded, 2 expired." */
export function describeDueWork(done: DueWorkDone): string {
  const runs = done.scheduled.map((run) => (run.paused ? `\nSchedule ${run.scheduleId} (slot ${run.slot}): paused by ${run.paused}.` : `\nSchedule ${run.scheduleId} (slot ${run.slot}): invited ${run.invited}.`));
  return `As of ${done.at}: ${done.reminded} invitation${done.reminded === 1 ? "" : "s"} reminded, ${done.expired} expired, ${done.scheduled.length} scheduled run${done.scheduled.length === 1 ? "" : "s"}.${runs.join("")}`;
}
