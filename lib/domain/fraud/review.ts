import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { preparedSql } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { appendEventPerSignup } from "../events";
import { countReferralsOf } from "../joining/referrals";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { FLAG_DECISIONS, type FlagDecision } from "./reasons";

// An admin's decision on flagged signups (the dashboard's review view, POST /v1/waitlist/{id}/signup/
// review/{decision}, `signups review`), in one transaction: every pending flag of each named signup
// takes the decision, its referral follows (approved: it counts, since now, whatever held it;
// discounted: it never counts), one event per signup, one audit row.

/** Which signups: listed addresses (/v1, the CLI) or ids (the rows selected in the dashboard). */
export type ReviewSelection = { waitlistId: string; emails: string[] } | { waitlistId: string; ids: number[] };

export interface ReviewOutcome {
  /** Signups whose flags took the decision. */
  decided: number;
  /** Named signups with no flag waiting (decided before, never flagged) or not on the waitlist. */
  skipped: number;
  /** The decided signups' ids, oldest first. */
  ids: number[];
}

const placeholder = sql.placeholder;

function statements(db: AppDatabase) {
  // In SQL (these four): the ids or addresses come as one JSON array, which Drizzle's builder has no form for.
  return {
    byEmail: preparedSql<{ id: number; pending: number }>(db, "fraud.review.byEmail", (d) =>
      sql`SELECT s.id, EXISTS (SELECT 1 FROM signup_flags f WHERE f.signup_id = s.id AND f.decision = 'pending') AS pending
       FROM signups s WHERE s.waitlist_id = ${placeholder("waitlistId")} AND lower(s.email) IN (SELECT lower(listed.value) FROM ${d.jsonRows(placeholder("list"), "listed")}) ORDER BY s.created_at, s.id`,
    ),
    byId: preparedSql<{ id: number; pending: number }>(db, "fraud.review.byId", (d) =>
      sql`SELECT s.id, EXISTS (SELECT 1 FROM signup_flags f WHERE f.signup_id = s.id AND f.decision = 'pending') AS pending
       FROM signups s WHERE s.waitlist_id = ${placeholder("waitlistId")} AND s.id ${d.inJson(placeholder("list"), "integer")} ORDER BY s.created_at, s.id`,
    ),
    decide: preparedSql(db, "fraud.review.decide", (d) =>
      sql`UPDATE signup_flags SET decision = ${placeholder("decision")}, decided_at = ${placeholder("at")} WHERE signup_id ${d.inJson(placeholder("ids"), "integer")} AND decision = 'pending'`,
    ),
    discount: preparedSql(db, "fraud.review.discount", (d) => sql`UPDATE referrals SET state = 'discounted', counted_at = NULL WHERE signup_id ${d.inJson(placeholder("ids"), "integer")}`),
  };
}

const listedBy = (selection: ReviewSelection) => ("emails" in selection ? "emails" : "ids");

/** Named signups with whether each has a flag waiting; an unknown waitlist is `not_found`. */
async function named(selection: ReviewSelection, db: AppDatabase): Promise<{ id: number; pending: boolean }[]> {
  const waitlistId = (await getWaitlistOrThrow(selection.waitlistId, db)).id;
  const prepared = statements(db);
  const rows = "emails" in selection ? await prepared.byEmail.all({ waitlistId, list: JSON.stringify(selection.emails) }) : await prepared.byId.all({ waitlistId, list: JSON.stringify(selection.ids) });
  return rows.map((row) => ({ id: row.id, pending: row.pending === 1 }));
}

/** What deciding would change now (the dashboard's confirmation page); changes nothing. */
export async function previewReview(selection: ReviewSelection, db: AppDatabase = getDb()): Promise<{ decides: number; skipped: number; missing: number }> {
  const found = await named(selection, db);
  const listed = "emails" in selection ? new Set(selection.emails.map((email) => email.toLowerCase())).size : new Set(selection.ids).size;
  const decides = found.filter((row) => row.pending).length;
  return { decides, skipped: found.length - decides, missing: listed - found.length };
}

/**
 * Decides the flags of the named signups. Throws `not_found` when none is on the waitlist, `conflict`
 * when none has a flag waiting (decided before, or never flagged): nothing changes then.
 */
export async function decideFlags(actor: AuditActor, decision: FlagDecision, selection: ReviewSelection, db: AppDatabase = getDb()): Promise<ReviewOutcome> {
  const { stored, event, audit, past } = FLAG_DECISIONS[decision];
  return await writeTransaction<ReviewOutcome>(db, async () => {
    const found = await named(selection, db);
    if (found.length === 0) throw new AppError("not_found", "None of these signups is on this waitlist.", listedBy(selection));
    const ids = found.filter((row) => row.pending).map((row) => row.id);
    if (ids.length === 0) throw new AppError("conflict", `None of these signups is waiting for review (no flag, or one decided before): nothing was ${past}.`, listedBy(selection));
    const at = Date.now();
    const idsJson = JSON.stringify(ids);
    const prepared = statements(db);
    await prepared.decide.run({ ids: idsJson, decision: stored, at });
    if (decision === "approve") await countReferralsOf(ids, at, db);
    else await prepared.discount.run({ ids: idsJson });
    const waitlistId = (await getWaitlistOrThrow(selection.waitlistId, db)).id;
    await appendEventPerSignup(event, waitlistId, idsJson, { decision: stored }, db, at);
    await recordAudit({ actor, action: audit, target: waitlistId, summary: `${past} ${ids.length} flagged signup${ids.length === 1 ? "" : "s"}` }, db);
    return { decided: ids.length, skipped: found.length - ids.length, ids };
  });
}
