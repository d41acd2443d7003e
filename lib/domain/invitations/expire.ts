import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { sql } from "drizzle-orm";
import { preparedSql } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, SCHEDULER_ACTOR } from "../audit/log";
import { appendEventPerSignup } from "../events";
import { lineSlice } from "../ranking/line";
import { invitationPolicies, type InvitationPolicy } from "./policies";
import { DAY_MS } from "@/lib/core/time";

// Invitations not redeemed in time expire (issue 32): as of `now`, each invited signup whose
// invitation (its status_changed_at) is at least the waitlist's invite_expiry_days old becomes
// waiting again at the front of the line (`requeue`) or rejected (`reject`), with one
// `signup.invitation_expired` event each and one audit row per batch, in one transaction per batch
// of at most `batch` signups, so the writer is never held long on a large list.

/** The most signups one write transaction of the scheduler changes. */
export const SCHEDULER_BATCH = 2_000;

const placeholder = sql.placeholder;

function statements(db: AppDatabase) {
  return {
    // In SQL: the partial index of invited signups (migration 0022) is chosen, which Drizzle's builder does not write.
    due: preparedSql<{ id: number }>(db, "invitations.expire.due", (d) =>
      sql`SELECT id FROM signups ${d.indexedBy("signups_invited_at_idx")} WHERE waitlist_id = ${placeholder("waitlistId")} AND status = 'invited' AND status_changed_at <= ${placeholder("before")} ORDER BY status_changed_at, id LIMIT ${placeholder("take")}`,
    ),
    // In SQL: the ids come as one JSON array, which Drizzle's builder has no form for; `status` is
    // kept out of the index choice so that SQLite stays on the ids rather than walking every invited
    // signup by their partial index (the transitions' UPDATE says how much that cost).
    requeue: preparedSql(db, "invitations.expire.requeue", (d) =>
      sql`UPDATE signups SET status = 'waiting', status_changed_at = ${placeholder("at")}, line_at = ${placeholder("lineAt")}, line_pos = ${placeholder("linePos")} WHERE id ${d.inJson(placeholder("ids"), "integer")} AND ${d.notIndexed(sql`status`)} = 'invited'`,
    ),
    reject: preparedSql(db, "invitations.expire.reject", (d) =>
      sql`UPDATE signups SET status = 'rejected', status_changed_at = ${placeholder("at")} WHERE id ${d.inJson(placeholder("ids"), "integer")} AND ${d.notIndexed(sql`status`)} = 'invited'`,
    ),
  };
}

/**
 * The place ahead of the whole line: just before the first waiting signup (its time less 1 ms, so
 * these stand in id order before it); null (their own places) when nobody waits.
 */
async function frontOfLine(waitlistId: string, db: AppDatabase): Promise<{ lineAt: number | null; linePos: number | null }> {
  const [first] = await lineSlice(waitlistId, undefined, 1, db);
  return first ? { lineAt: first.at - 1, linePos: 0 } : { lineAt: null, linePos: null };
}

/** One batch of one waitlist's expired invitations; how many expired. */
async function expireBatch(policy: InvitationPolicy, now: number, batch: number, db: AppDatabase): Promise<number> {
  return await writeTransaction(db, async () => {
    const prepared = statements(db);
    const ids = (await prepared.due.all({ waitlistId: policy.waitlistId, before: now - policy.expiryDays * DAY_MS, take: batch })).map((row) => row.id);
    if (ids.length === 0) return 0;
    const idsJson = JSON.stringify(ids);
    const to = policy.onExpiry === "requeue" ? "waiting" : "rejected";
    const changed = to === "waiting" ? (await prepared.requeue.run({ ids: idsJson, at: now, ...await frontOfLine(policy.waitlistId, db) })).changes : (await prepared.reject.run({ ids: idsJson, at: now })).changes;
    await appendEventPerSignup("signup.invitation_expired", policy.waitlistId, idsJson, { from: "invited", to }, db, now);
    const outcome = to === "waiting" ? "back to waiting at the front of the line" : "rejected";
    await recordAudit({ actor: SCHEDULER_ACTOR, action: "signups.expire", target: policy.waitlistId, summary: `${changed} invitation${changed === 1 ? "" : "s"} expired after ${policy.expiryDays} days: ${outcome}` }, db);
    return changed;
  });
}

/** Expires every invitation due as of `now`, batch by batch; how many expired. */
export async function expireInvitations(now: number, db: AppDatabase = getDb(), batch = SCHEDULER_BATCH): Promise<number> {
  let expired = 0;
  for (const policy of await invitationPolicies(db)) {
    for (;;) {
      const changed = await expireBatch(policy, now, batch, db);
      expired += changed;
      if (changed < batch) break;
    }
  }
  return expired;
}
