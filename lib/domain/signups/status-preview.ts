import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { preparedSql } from "@/lib/store/statements";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { countSignups } from "./counts";
import type { SignupScope } from "./filter";
import { SIGNUP_STATUSES, STATUS_ACTIONS, type SignupStatus, type StatusAction } from "./status";
import { findListed, firstIdsInState, type StatusSelection } from "./transitions";

// What a status action would change, for the dashboard's confirmation page: how many signups the
// selection names, how many of those the action changes, the rest by state, and the first few that
// change. A filter's numbers come from signup_counts (counts.ts), not from walking its rows.

export interface StatusPreview {
  /** The signups the selection names: the filter's matches, or the selected rows still on the list. */
  named: number;
  /** False when an email search matches too many to count: `named` is then a lower bound. */
  exact: boolean;
  /** How many of them the action changes (at most the selection's limit). */
  changes: number;
  /** The others, by state: the action leaves them as they are. */
  unchanged: { status: SignupStatus; count: number }[];
  /** Selected ids no longer on the waitlist (erased since they were shown). */
  missing: number;
  /** The first signups that change, in the order the action takes them (transitions.ts). */
  first: { id: number; email: string }[];
}

/** How many signups the preview lists by address. */
export const PREVIEW_EMAILS = 10;

function emailsStatement(db: AppDatabase) {
  // In SQL: the ids come as one JSON array, in their order, which Drizzle's builder has no form for.
  return preparedSql<{ id: number; email: string }>(
    db,
    "statusPreview.emails",
    (d) => sql`SELECT signups.id, email FROM ${d.jsonRowsInOrder(sql.placeholder("ids"), "listed", "integer")} JOIN signups ON signups.id = listed.value ORDER BY listed.key`,
  );
}

async function emailsOf(ids: number[], db: AppDatabase): Promise<{ id: number; email: string }[]> {
  return ids.length === 0 ? [] : await emailsStatement(db).all({ ids: JSON.stringify(ids.slice(0, PREVIEW_EMAILS)) });
}

async function previewScope(action: StatusAction, scope: SignupScope, limit: number, db: AppDatabase): Promise<StatusPreview> {
  const { from } = STATUS_ACTIONS[action];
  const counts = await countSignups(scope, db);
  const first = await emailsOf(await firstIdsInState(action, scope, limit < 0 ? PREVIEW_EMAILS : Math.min(limit, PREVIEW_EMAILS), db), db);
  const capped = (count: number) => (limit < 0 ? count : Math.min(limit, count));
  if (!counts.exact) {
    // Too many matches to count by state: the action's own selection says how many it changes.
    return { named: counts.total, exact: false, changes: (await firstIdsInState(action, scope, limit, db)).length, unchanged: [], missing: 0, first };
  }
  const shown = SIGNUP_STATUSES.filter((status) => scope.status === undefined || scope.status.includes(status));
  const inState = shown.includes(from) ? counts.statusFacet[from] : 0;
  const changes = capped(inState);
  const unchanged = shown.filter((status) => status !== from && counts.statusFacet[status] > 0).map((status) => ({ status, count: counts.statusFacet[status] }));
  // With a limit, the waiting signups past it are left as they are too.
  if (inState > changes) unchanged.unshift({ status: from, count: inState - changes });
  return { named: counts.total, exact: true, changes, unchanged, missing: 0, first };
}

async function previewListed(action: StatusAction, selection: Exclude<StatusSelection, { scope: SignupScope }>, db: AppDatabase): Promise<StatusPreview> {
  const { from } = STATUS_ACTIONS[action];
  const { listed, found } = await findListed(selection, db);
  const applicable = found.filter((row) => row.status === from).map((row) => row.id);
  const unchanged = SIGNUP_STATUSES.map((status) => ({ status, count: found.filter((row) => row.status === status && status !== from).length })).filter(({ count }) => count > 0);
  return { named: found.length, exact: true, changes: applicable.length, unchanged, missing: listed - found.length, first: await emailsOf(applicable, db) };
}

/** What applying `action` to `selection` would change now; changes nothing. */
export async function previewStatusAction(action: StatusAction, selection: StatusSelection, db: AppDatabase = getDb()): Promise<StatusPreview> {
  if ("scope" in selection) {
    const waitlistId = (await getWaitlistOrThrow(selection.scope.waitlistId, db)).id;
    return await previewScope(action, { ...selection.scope, waitlistId }, selection.limit, db);
  }
  const waitlistId = (await getWaitlistOrThrow(selection.waitlistId, db)).id;
  return await previewListed(action, { ...selection, waitlistId }, db);
}
