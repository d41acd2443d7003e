import "server-only";
import { asc, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { dialectOf } from "@/lib/store/dialect";
import { preparedOnce, preparedSql } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { appendEventPerSignup } from "../events";
import { nextInLine } from "../ranking/line-scope";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { planScope } from "./access";
import { INPUT_FILTER, setFilters, type SignupFilter, type SignupScope } from "./filter";
import type { SignupRow } from "./row";
import { scopeWhere, shapeKey, type ScopeShape } from "./scope-sql";
import { refusal, STATUS_ACTIONS, type SignupStatus, type StatusAction } from "./status";

// Applies one action of the status table (status.ts) to a selection of signups, in one transaction:
// the statuses change in one UPDATE (the triggers of migration 0010 keep signup_counts exact), one
// event per changed signup goes in with one INSERT … SELECT, and one audit row names the action,
// the count and the selection in words. Set-based: 100,000 signups change in one statement each.

/**
 * Which signups: the first `limit` of a filter in the state the action applies to (waiting ones in line, others oldest first) (-1: every one, as
 * SQLite reads LIMIT -1), or listed addresses, or listed signup ids (the rows selected in the dashboard).
 */
export type StatusSelection = { scope: SignupScope; limit: number } | { waitlistId: string; emails: string[] } | { waitlistId: string; ids: number[] };

export interface StatusChange {
  action: StatusAction;
  selection: StatusSelection;
  /** Changes nothing: `changed` says how many would change, and `signups` which. */
  dryRun?: boolean;
  /** Read the changed signups back (the /v1 answer, a dry run's list); counting alone is cheaper. */
  withSignups?: boolean;
}

export type StatusSignup = SignupRow & { status: SignupStatus; statusChangedAt: Date | null };

export interface StatusOutcome {
  changed: number;
  /** Listed addresses the action did not apply to: in another state, or not on the waitlist. */
  skipped: number;
  signups: StatusSignup[];
}

const placeholder = sql.placeholder;

function waitlistOf(selection: StatusSelection): string {
  return "scope" in selection ? selection.scope.waitlistId : selection.waitlistId;
}

function scopeIdsStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedSql<{ id: number }>(db, `transitions.scopeIds:${shapeKey(shape)}`, (d) =>
    sql`select ${signups.id} as id from ${signups} where ${scopeWhere(shape, d)} order by ${signups.createdAt}, ${signups.id} limit ${d.limitCount(placeholder("limit"))}`,
  );
}

function emailIdsStatement(db: AppDatabase) {
  // In SQL: the addresses come as one JSON array, which Drizzle's builder has no form for.
  return preparedSql<ListedRow>(
    db,
    "transitions.emailIds",
    (d) =>
      sql`SELECT id, status FROM signups WHERE waitlist_id = ${placeholder("waitlistId")} AND lower(email) IN (SELECT lower(value) FROM ${d.jsonRows(placeholder("emails"), "listed")}) ORDER BY created_at, id`,
  );
}

function listedIdsStatement(db: AppDatabase) {
  // In SQL: the ids come as one JSON array, which Drizzle's builder has no form for.
  return preparedSql<ListedRow>(
    db,
    "transitions.listedIds",
    (d) => sql`SELECT id, status FROM signups WHERE waitlist_id = ${placeholder("waitlistId")} AND id ${d.inJson(placeholder("ids"), "integer")} ORDER BY created_at, id`,
  );
}

/**
 * The funnel's first invitation and completion (migration 0023's `invited_at`, `completed_at`) are
 * dated in the status change's own UPDATE: done by a trigger, each row was written twice, and inviting
 * 10,000 of a 40,000 list took 981 ms instead of 553 (migration 0024).
 */
const FUNNEL_TIME: Partial<Record<SignupStatus, string>> = { invited: "invited_at", completed: "completed_at" };

function updateStatement(db: AppDatabase, to: SignupStatus) {
  const dated = FUNNEL_TIME[to];
  // In SQL: 100,000 ids of an invite come as one JSON array, which Drizzle's builder has no form for.
  // `+status` (notIndexed): bound to 'invited', `status = @from` let SQLite (which replans for a bound value that a
  // partial index names) walk every invited signup by their partial index instead of the listed ids:
  // a redeem's UPDATE took 1.52 ms with 3,000 invited, 0.31 ms by id.
  return preparedSql(
    db,
    `transitions.update:${to}`,
    (d) =>
      sql`UPDATE signups SET status = ${placeholder("to")}, status_changed_at = ${placeholder("at")}${dated ? sql`, ${sql.raw(dated)} = coalesce(${sql.raw(dated)}, ${placeholder("at")})` : sql``} WHERE id ${d.inJson(placeholder("ids"), "integer")} AND ${d.notIndexed(sql.raw("status"))} = ${placeholder("from")}`,
  );
}

function readStatement(db: AppDatabase) {
  return preparedOnce(db, "transitions.read", () =>
    db
      .select({
        id: signups.id,
        email: signups.email,
        verified: signups.verified,
        referral: signups.referral,
        customInputs: sql<string>`${signups.customInputs}`,
        createdAt: signups.createdAt,
        status: signups.status,
        statusChangedAt: signups.statusChangedAt,
      })
      .from(signups)
      .where(sql`${signups.id} ${dialectOf(db).inJson(placeholder("ids"), "integer")}`)
      .orderBy(asc(signups.createdAt), asc(signups.id))
      .prepare(),
  );
}

/** A filter's chips, as the dashboard shows them ("Verified", "Company: Acme"). */
export function filterWords(filter: SignupFilter): string[] {
  return [...setFilters(filter).map(({ descriptor, value }) => descriptor.chip(value)), ...(filter.inputs ?? []).map(INPUT_FILTER.chip)];
}

/** The filter in words, for the audit log: its chips ("Verified, Company: Acme"), or "every signup". */
export function selectionInWords(scope: SignupScope): string {
  const words = filterWords(scope);
  return words.length > 0 ? words.join(", ") : "every signup";
}

interface Selected {
  ids: number[];
  skipped: number;
}

/**
 * The ids of the first `limit` signups of the scope in the state `action` applies to (-1: all of
 * them): waiting signups in line (their places, lib/domain/ranking), the others oldest first.
 */
export async function firstIdsInState(action: StatusAction, scope: SignupScope, limit: number, db: AppDatabase): Promise<number[]> {
  const { from } = STATUS_ACTIONS[action];
  if (from === "waiting") return nextInLine(scope, limit, db);
  // The action applies to one state: the filter narrowed to it (nothing, if it names other states only).
  if (scope.status !== undefined && !scope.status.includes(from)) return [];
  const narrowed: SignupScope = { ...scope, status: [from] };
  const { shape, params } = await planScope(narrowed, (plan) => plan.rows, db);
  return (await scopeIdsStatement(db, shape)
    .all({ ...params, limit }))
    .map((row) => row.id);
}

interface ListedRow {
  id: number;
  status: SignupStatus;
}

/** The signups a list names (addresses in any case, or ids), oldest first, and how many distinct entries it has. */
export async function findListed(selection: Exclude<StatusSelection, { scope: SignupScope }>, db: AppDatabase): Promise<{ listed: number; found: ListedRow[] }> {
  const { waitlistId } = selection;
  if ("ids" in selection) return { listed: new Set(selection.ids).size, found: await listedIdsStatement(db).all({ waitlistId, ids: JSON.stringify(selection.ids) }) };
  const { emails } = selection;
  const listed = new Set(emails.map((email) => email.trim().toLowerCase())).size;
  return { listed, found: await emailIdsStatement(db).all({ waitlistId, emails: JSON.stringify(emails.map((email) => email.trim())) }) };
}

function listedNoun(selection: Exclude<StatusSelection, { scope: SignupScope }>, count: number): string {
  if ("ids" in selection) return count === 1 ? "signup selected" : `${count} signups selected`;
  return count === 1 ? "address given" : `${count} addresses given`;
}

async function selectListed(action: StatusAction, selection: Exclude<StatusSelection, { scope: SignupScope }>, db: AppDatabase): Promise<Selected> {
  const { from } = STATUS_ACTIONS[action];
  const parameter = "ids" in selection ? "ids" : "emails";
  const { listed, found } = await findListed(selection, db);
  const applicable = found.filter((row) => row.status === from);
  if (found.length === 0) throw new AppError("not_found", `Waitlist ${selection.waitlistId} has none of the ${listedNoun(selection, listed)}.`, parameter);
  if (applicable.length === 0) {
    const states = [...new Set(found.map((row) => row.status))];
    throw new AppError("conflict", states.map((state) => refusal(action, state)).join("; "), parameter);
  }
  return { ids: applicable.map((row) => row.id), skipped: listed - applicable.length };
}

/** "the next 50 waiting in line of Verified", "the oldest 5 invited of Verified", "every waiting signup of every signup". */
export function scopeSelectionInWords(action: StatusAction, scope: SignupScope, limit: number): string {
  const { from } = STATUS_ACTIONS[action];
  const which = limit < 0 ? `every ${from} signup` : from === "waiting" ? `the next ${limit} waiting in line` : `the oldest ${limit} ${from}`;
  return `${which} of ${selectionInWords(scope)}`;
}

function auditSummary(action: StatusAction, change: StatusChange, changed: number, skipped: number): string {
  const { past } = STATUS_ACTIONS[action];
  const count = `${past} ${changed} signup${changed === 1 ? "" : "s"}`;
  const { selection } = change;
  if ("scope" in selection) return `${count}: ${scopeSelectionInWords(action, selection.scope, selection.limit)}`;
  const listed = "ids" in selection ? selection.ids.length : selection.emails.length;
  const noun = "ids" in selection ? "selected signup" : "listed address";
  return `${count} of ${listed} ${noun}${listed === 1 ? "" : noun.endsWith("s") ? "es" : "s"} (${skipped} skipped)`;
}

/**
 * Applies `change` in one transaction (BEGIN IMMEDIATE): the statuses, one event per changed signup
 * and one audit row commit together or not at all. A dry run only reads. Listed addresses that are
 * all unknown are refused as `not_found`; all in other states as `conflict`, naming both states.
 */
export async function applyStatusAction(actor: AuditActor, change: StatusChange, db: AppDatabase = getDb()): Promise<StatusOutcome> {
  const { action, selection } = change;
  const { from, to, event } = STATUS_ACTIONS[action];
  const waitlistId = waitlistOf(selection).toLowerCase();
  const run = async (): Promise<StatusOutcome> => {
    await getWaitlistOrThrow(waitlistId, db);
    const { ids, skipped } =
      "scope" in selection ? { ids: await firstIdsInState(action, { ...selection.scope, waitlistId }, selection.limit, db), skipped: 0 } : await selectListed(action, { ...selection, waitlistId }, db);
    const idsJson = JSON.stringify(ids);
    let changed = ids.length;
    if (!change.dryRun) {
      const at = Date.now();
      changed = (await updateStatement(db, to).run({ ids: idsJson, from, to, at })).changes;
      await appendEventPerSignup(event, waitlistId, idsJson, { from, to }, db, at);
      await recordAudit({ actor, action: `signups.${action}`, target: waitlistId, summary: auditSummary(action, change, changed, skipped) }, db);
    }
    const rows = change.withSignups && ids.length > 0 ? await readStatement(db).all({ ids: idsJson }) : [];
    return { changed, skipped, signups: rows.map((row) => ({ ...row, customInputs: JSON.parse(row.customInputs) as Record<string, unknown>[] })) };
  };
  return change.dryRun ? await run() : await writeTransaction(db, run);
}
