import { sql, type SQL } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import type { Dialect } from "@/lib/store/dialect";
import { preparedSql } from "@/lib/store/statements";
import { setFilters, type InputMatch, type SignupScope } from "./filter";

// A scope that is one custom input, narrowed at most by a date range and the flags, is one range of
// signup_inputs' key (waitlist, label, value, created_at, signup id), whose rows carry the flags:
// its counts, its chart and its newest signups are read there, without visiting a signup.

export interface InputSlice {
  waitlistId: string;
  label: string;
  value: string;
  since: number;
  until: number;
}

const FAR = 8.64e15; // the largest Date, in ms

/** The scope as a slice of signup_inputs, or undefined when it filters on anything else. */
export function inputSliceOf(scope: SignupScope): InputSlice | undefined {
  if (!setFilters(scope).every(({ descriptor }) => descriptor.inputSliced) || scope.inputs?.length !== 1) return undefined;
  const { label, value } = scope.inputs[0] as InputMatch;
  return { waitlistId: scope.waitlistId, label, value, since: scope.createdSince?.getTime() ?? -FAR, until: scope.createdUntil?.getTime() ?? FAR };
}

const placeholder = sql.placeholder;

/** The slice's range of signup_inputs' key; `table` qualifies its columns (`signup_inputs.`) where a join needs it. */
function sliceTests(table = ""): SQL {
  const column = (name: string) => sql.raw(`${table}${name}`);
  return sql`${column("waitlist_id")} = ${placeholder("waitlistId")} AND ${column("label")} = ${placeholder("label")} AND ${column("value")} = ${placeholder("value")} AND ${column("created_at")} >= ${placeholder("since")} AND ${column("created_at")} < ${placeholder("until")}`;
}

function flagTests(verified: boolean, referral: boolean, table = ""): SQL {
  return sql`${verified ? sql` AND ${sql.raw(`${table}verified`)} = ${placeholder("verified")}` : sql``}${referral ? sql` AND ${sql.raw(`${table}referral`)} = ${placeholder("referral")}` : sql``}`;
}

function flagParams(scope: SignupScope) {
  return { verified: scope.verified ? 1 : 0, referral: scope.referral ? 1 : 0 };
}

interface Cell {
  verified: number;
  referral: number;
  n: number;
}

/** The slice's verified × referral cells (its own flag filters left out, as countSignups needs). */
export async function sliceCells(slice: InputSlice, db: AppDatabase = getDb()): Promise<Cell[]> {
  // In SQL: sliceTests is the same fragment newestOfSlice gives facets.ts to nest in its statement over the labels' JSON array.
  const statement = preparedSql<Cell>(db, "inputSlice.cells", () => sql`SELECT verified, referral, count(*) AS n FROM signup_inputs WHERE ${sliceTests()} GROUP BY 1, 2`);
  return await statement.all({ ...slice });
}

/** Signups of the scope's slice per UTC day from `since` on, as signupsPerDay returns them. */
export async function slicePerDay(scope: SignupScope, slice: InputSlice, db: AppDatabase = getDb()): Promise<{ day: string; count: number }[]> {
  const verified = scope.verified !== undefined;
  const referral = scope.referral !== undefined;
  // In SQL: sliceTests again (see sliceCells), grouped by a computed day.
  const statement = preparedSql<{ day: string; count: number }>(
    db,
    `inputSlice.perDay:${verified}:${referral}`,
    (d) => sql`SELECT ${d.utcDate(sql`day * ${sql.raw(String(DAY_MS / 1000))}`)} AS day, n AS count FROM (
         SELECT created_at / ${sql.raw(String(DAY_MS))} AS day, count(*) AS n FROM signup_inputs WHERE ${sliceTests()}${flagTests(verified, referral)} GROUP BY 1
       )${d.subqueryName("days")} ORDER BY 1`,
  );
  return await statement.all({ ...slice, ...flagParams(scope) });
}

/**
 * The scope as a slice narrowed by a status filter that keeps `waiting` (its status is not in
 * signup_inputs: each row's signup is looked up by id), or undefined. The facets' sample of
 * role=Engineer and waiting on a 1M list read 11,000 rows of the slice this way, where walking the
 * list newest first, testing the input on every signup, read 58,000 (180 ms → 25 ms). Statuses
 * without `waiting` are few and have their own index (access.ts): walking the slice for them would
 * read all of it (role=Engineer and rejected: 194,000 rows for 177).
 */
export function statusedSliceOf(scope: SignupScope): InputSlice | undefined {
  return scope.status?.includes("waiting") ? inputSliceOf({ ...scope, status: undefined }) : undefined;
}

/**
 * The SQL of the slice's newest `rowCap` signup ids (as `id`), for the facets' sample; its
 * placeholders are InputSlice's, the flags', the statuses' (a JSON array, with a status filter) and rowCap.
 */
export function newestOfSlice(dialect: Dialect, scope: SignupScope): SQL {
  const verified = scope.verified !== undefined;
  const referral = scope.referral !== undefined;
  if (scope.status === undefined) return sql`SELECT signup_id AS id FROM signup_inputs WHERE ${sliceTests()}${flagTests(verified, referral)} ORDER BY created_at DESC LIMIT ${placeholder("rowCap")}`;
  // CROSS JOIN: the slice's key drives, and each signup is one lookup by id.
  return sql`SELECT signup_inputs.signup_id AS id FROM signup_inputs ${dialect.crossJoin()} signups ON signups.id = signup_inputs.signup_id
    WHERE ${sliceTests("signup_inputs.")}${flagTests(verified, referral, "signup_inputs.")}
      AND signups.status ${dialect.inJson(placeholder("statuses"))}
    ORDER BY signup_inputs.created_at DESC LIMIT ${placeholder("rowCap")}`;
}

/** The placeholders' values of newestOfSlice. */
export function newestOfSliceParams(scope: SignupScope, slice: InputSlice, rowCap: number) {
  return { ...slice, ...flagParams(scope), rowCap, ...(scope.status !== undefined && { statuses: JSON.stringify(scope.status) }) };
}

/** Whether the scope's slice holds more than `cap` signups, reading at most cap + 1 of them. */
export async function sliceExceeds(scope: SignupScope, slice: InputSlice, cap: number, db: AppDatabase = getDb()): Promise<boolean> {
  const key = `inputSlice.exceeds:${scope.verified !== undefined}:${scope.referral !== undefined}:${scope.status !== undefined}`;
  // In SQL: it counts newestOfSlice, the fragment facets.ts nests in its statement over the labels' JSON array.
  const statement = preparedSql<{ n: number }>(db, key, (d) => sql`SELECT count(*) AS n FROM (${newestOfSlice(d, scope)})${d.subqueryName("newest")}`);
  return (await statement.get(newestOfSliceParams(scope, slice, cap + 1)))!.n > cap;
}
