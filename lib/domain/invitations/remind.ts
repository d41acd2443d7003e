import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { preparedSql } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, SCHEDULER_ACTOR } from "../audit/log";
import { days } from "../emails/invitation";
import { appendEventPerSignup } from "../events";
import { SCHEDULER_BATCH } from "./expire";
import { invitationPolicies, type InvitationPolicy } from "./policies";

// The reminder before an invitation expires (issue 32): as of `now`, each invited signup of a
// waitlist with `reminder_days_before` set, whose invitation expires within that many days and has
// not had its reminder, gets one `signup.invitation_reminder` event (the outbox renders the reminder
// email from it, lib/domain/deliveries/fan-out.ts) and a row in invitation_reminders naming the
// invitation by its time, in the same transaction: so each invitation is reminded once, and a
// re-invite (a new time) once again.

const placeholder = sql.placeholder;

function statements(db: AppDatabase) {
  return {
    // In SQL: the partial index of invited signups (migration 0022) is chosen, which Drizzle's builder does not write.
    due: preparedSql<{ id: number; invitedAt: number }>(db, "invitations.remind.due", (d) =>
      sql`SELECT id, status_changed_at AS invitedAt FROM signups ${d.indexedBy("signups_invited_at_idx")}
       WHERE waitlist_id = ${placeholder("waitlistId")} AND status = 'invited' AND status_changed_at <= ${placeholder("remindBefore")} AND status_changed_at > ${placeholder("expireBefore")}
         AND NOT EXISTS (SELECT 1 FROM invitation_reminders WHERE signup_id = signups.id AND invited_at = signups.status_changed_at)
       ORDER BY status_changed_at, id LIMIT ${placeholder("take")}`,
    ),
    // In SQL: one row per element of a JSON array, which Drizzle's builder has no form for.
    record: preparedSql(db, "invitations.remind.record", (d) =>
      sql`INSERT INTO invitation_reminders (signup_id, invited_at, sent_at)
       SELECT ${d.jsonItem(sql`reminder.value`, 0, "bigint")}, ${d.jsonItem(sql`reminder.value`, 1, "bigint")}, ${d.typed(placeholder("at"), "bigint")} FROM ${d.jsonRows(placeholder("rows"), "reminder", "json")} WHERE true
       ON CONFLICT (signup_id) DO UPDATE SET invited_at = excluded.invited_at, sent_at = excluded.sent_at`,
    ),
  };
}

/** One batch of one waitlist's due reminders; how many were recorded. */
async function remindBatch(policy: InvitationPolicy & { reminderDaysBefore: number }, now: number, batch: number, db: AppDatabase): Promise<number> {
  return await writeTransaction(db, async () => {
    const prepared = statements(db);
    const expireBefore = now - policy.expiryDays * DAY_MS;
    const due = await prepared.due.all({ waitlistId: policy.waitlistId, remindBefore: expireBefore + policy.reminderDaysBefore * DAY_MS, expireBefore, take: batch });
    if (due.length === 0) return 0;
    await prepared.record.run({ rows: JSON.stringify(due.map((row) => [row.id, row.invitedAt])), at: now });
    await appendEventPerSignup("signup.invitation_reminder", policy.waitlistId, JSON.stringify(due.map((row) => row.id)), { days_before_expiry: policy.reminderDaysBefore }, db, now);
    await recordAudit({ actor: SCHEDULER_ACTOR, action: "signups.remind", target: policy.waitlistId, summary: `reminded ${due.length} invited signup${due.length === 1 ? "" : "s"}: their invitations expire within ${days(policy.reminderDaysBefore)}` }, db);
    return due.length;
  });
}

/** Records every reminder due as of `now`, batch by batch; how many. */
export async function remindInvitations(now: number, db: AppDatabase = getDb(), batch = SCHEDULER_BATCH): Promise<number> {
  let reminded = 0;
  for (const policy of await invitationPolicies(db)) {
    const { reminderDaysBefore } = policy;
    if (reminderDaysBefore === null) continue;
    for (;;) {
      const recorded = await remindBatch({ ...policy, reminderDaysBefore }, now, batch, db);
      reminded += recorded;
      if (recorded < batch) break;
    }
  }
  return reminded;
}
