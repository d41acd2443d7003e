import type { Database, Statement } from "better-sqlite3";
import { getDb, type AppDatabase } from "@/db/client";
import type { Position } from "@/lib/sqlite/keyset";
import { containsPattern } from "@/lib/sqlite/like-pattern";
import type { SignupSort, SortDirection } from "../sorting";

export interface SignupFilters {
  verified?: boolean;
  referral?: boolean;
}

/** Which signups: one waitlist, optional verified/referral filters (AND), optional email search. */
export interface SignupScope extends SignupFilters {
  waitlistId: string;
  /** Case-insensitive substring of the email. */
  search?: string;
}

export interface SignupRow {
  id: number;
  email: string;
  verified: boolean;
  referral: boolean;
  customInputs: Record<string, unknown>[];
  createdAt: Date;
}

// SQLite writes the API's JSON itself, so a page or a stream never round-trips through JSON.parse.
// Keep in step with signupResponseSchema (a unit test compares the two).
const SIGNUP_JSON_SQL = `json_object('email', email, 'verified', json(iif(verified, 'true', 'false')), 'referral', json(iif(referral, 'true', 'false')), 'custom_inputs', json(custom_inputs))`;
const ROW_COLUMNS = "id, email, verified, referral, custom_inputs, created_at";
const ORDER_EXPRESSIONS: Record<SignupSort, string> = { created_at: "created_at", email: "lower(email)" };

type RawRow = { id: number; email: string; verified: number; referral: number; custom_inputs: string; created_at: number };

function toSignupRow(raw: RawRow): SignupRow {
  return {
    id: raw.id,
    email: raw.email,
    verified: raw.verified === 1,
    referral: raw.referral === 1,
    customInputs: JSON.parse(raw.custom_inputs) as Record<string, unknown>[],
    createdAt: new Date(raw.created_at),
  };
}

const statementCache = new WeakMap<Database, Map<string, Statement>>();

/** Prepared once per connection and SQL text: the filter combinations are few. */
function statement(db: AppDatabase, sql: string): Statement {
  let cache = statementCache.get(db.$client);
  if (!cache) statementCache.set(db.$client, (cache = new Map()));
  let prepared = cache.get(sql);
  if (!prepared) cache.set(sql, (prepared = db.$client.prepare(sql)));
  return prepared;
}

/** The WHERE clause for a scope, with named parameters. */
function scopeWhere(scope: SignupScope, ignore: keyof SignupFilters | null = null) {
  const clauses = ["waitlist_id = @waitlistId"];
  const params: Record<string, unknown> = { waitlistId: scope.waitlistId };
  if (scope.verified !== undefined && ignore !== "verified") {
    clauses.push("verified = @verified");
    params.verified = scope.verified ? 1 : 0;
  }
  if (scope.referral !== undefined && ignore !== "referral") {
    clauses.push("referral = @referral");
    params.referral = scope.referral ? 1 : 0;
  }
  if (scope.search) {
    clauses.push("email LIKE @search ESCAPE '\\'");
    params.search = containsPattern(scope.search);
  }
  return { where: clauses.join(" AND "), params };
}

export interface KeysetPageInput {
  scope: SignupScope;
  limit: number;
  after?: Position;
}

/**
 * One keyset page in creation order (created_at, then id), as JSON texts of API objects.
 * `next` is the position to continue from, or null on the last page.
 */
export function signupJsonPage({ scope, limit, after }: KeysetPageInput, db: AppDatabase = getDb()) {
  const { where, params } = scopeWhere(scope);
  const afterClause = after ? " AND (created_at, id) > (@afterCreatedAt, @afterId)" : "";
  const sql = `SELECT created_at, id, ${SIGNUP_JSON_SQL} FROM signups WHERE ${where}${afterClause} ORDER BY created_at, id LIMIT @take`;
  const rows = statement(db, sql)
    .raw()
    .all({ ...params, ...(after && { afterCreatedAt: after.createdAt, afterId: after.id }), take: limit + 1 }) as [
    number,
    number,
    string,
  ][];
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  const next: Position | null = rows.length > limit && last ? { createdAt: last[0], id: last[1] } : null;
  return { items: page.map((row) => row[2]), next };
}

/**
 * Every signup of a scope in creation order, as batches of JSON texts. No statement stays open
 * between batches, so writers on the same connection are never blocked by a slow reader.
 */
export function* signupJsonBatches(scope: SignupScope, batchSize = 1000, db: AppDatabase = getDb()) {
  let after: Position | undefined;
  do {
    const page = signupJsonPage({ scope, limit: batchSize, after }, db);
    if (page.items.length > 0) yield page.items;
    after = page.next ?? undefined;
  } while (after);
}

/** Every signup of a scope in creation order, as batches of rows (for exports). */
export function* signupRowBatches(scope: SignupScope, batchSize = 1000, db: AppDatabase = getDb()) {
  const { where, params } = scopeWhere(scope);
  const sql = `SELECT ${ROW_COLUMNS} FROM signups WHERE ${where} AND (created_at, id) > (@afterCreatedAt, @afterId) ORDER BY created_at, id LIMIT @take`;
  let after: Position = { createdAt: -1, id: -1 };
  for (;;) {
    const rows = statement(db, sql).all({ ...params, afterCreatedAt: after.createdAt, afterId: after.id, take: batchSize }) as RawRow[];
    if (rows.length === 0) return;
    yield rows.map(toSignupRow);
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.created_at, id: last.id };
    if (rows.length < batchSize) return;
  }
}

export interface OffsetPageInput {
  scope: SignupScope;
  sort?: SignupSort;
  direction?: SortDirection;
  offset: number;
  limit: number;
}

/** One page by offset, for the dashboard's numbered pages. Ties are broken by id in the same direction. */
export function listSignupRows({ scope, sort = "created_at", direction = "desc", offset, limit }: OffsetPageInput, db: AppDatabase = getDb()) {
  const { where, params } = scopeWhere(scope);
  const dir = direction === "asc" ? "ASC" : "DESC";
  const sql = `SELECT ${ROW_COLUMNS} FROM signups WHERE ${where} ORDER BY ${ORDER_EXPRESSIONS[sort]} ${dir}, id ${dir} LIMIT @limit OFFSET @offset`;
  return (statement(db, sql).all({ ...params, limit, offset }) as RawRow[]).map(toSignupRow);
}

/** Counts of one scope split by verified × referral; every total and facet derives from them. */
export interface SignupCounts {
  total: number;
  verified: number;
  referral: number;
  /** How many signups each verified option would show under the other active filters. */
  verifiedFacet: { yes: number; no: number };
  /** How many signups each referral option would show under the other active filters. */
  referralFacet: { yes: number; no: number };
}

// Without an email search, counts come from signup_counts (kept exact by triggers, see db/schema.ts):
// whole UTC days from there, and only the part of a day before the first whole one from signups.
// With a search they come from signups, which is the only place the emails are.
const DAY_MS = 86_400_000;

export function countSignups(scope: SignupScope, db: AppDatabase = getDb()): SignupCounts {
  const { where, params } = scopeWhere({ waitlistId: scope.waitlistId, search: scope.search });
  const sql = scope.search
    ? `SELECT verified, referral, count(*) AS n FROM signups WHERE ${where} GROUP BY verified, referral`
    : `SELECT verified, referral, sum(count) AS n FROM signup_counts WHERE ${where} GROUP BY verified, referral`;
  const cells = statement(db, sql).all(params) as { verified: number; referral: number; n: number }[];
  const sum = (verified?: boolean, referral?: boolean) =>
    cells
      .filter((cell) => (verified === undefined || cell.verified === Number(verified)) && (referral === undefined || cell.referral === Number(referral)))
      .reduce((total, cell) => total + cell.n, 0);
  return {
    total: sum(scope.verified, scope.referral),
    verified: scope.verified === false ? 0 : sum(true, scope.referral),
    referral: scope.referral === false ? 0 : sum(scope.verified, true),
    verifiedFacet: { yes: sum(true, scope.referral), no: sum(false, scope.referral) },
    referralFacet: { yes: sum(scope.verified, true), no: sum(scope.verified, false) },
  };
}

/** `since` and the first whole UTC day at or after it, as named parameters. */
function windowParams(since: Date) {
  const firstDay = Math.ceil(since.getTime() / DAY_MS);
  return { since: since.getTime(), firstDay, firstDayStart: firstDay * DAY_MS };
}

/** Signups of a scope created at or after `since`. */
export function countSignupsSince(scope: SignupScope, since: Date, db: AppDatabase = getDb()): number {
  const { where, params } = scopeWhere(scope);
  const sql = scope.search
    ? `SELECT count(*) AS n FROM signups WHERE ${where} AND created_at >= @since`
    : `SELECT (SELECT count(*) FROM signups WHERE ${where} AND created_at >= @since AND created_at < @firstDayStart)
            + (SELECT coalesce(sum(count), 0) FROM signup_counts WHERE ${where} AND day >= @firstDay) AS n`;
  return (statement(db, sql).get({ ...params, ...windowParams(since) }) as { n: number }).n;
}

/** Signups per UTC day from `since` on, as [{ day: "YYYY-MM-DD", count }] for days that have any. */
export function signupsPerDay(scope: SignupScope, since: Date, db: AppDatabase = getDb()) {
  const { where, params } = scopeWhere(scope);
  const sql = scope.search
    ? `SELECT date(created_at / 1000, 'unixepoch') AS day, count(*) AS count FROM signups WHERE ${where} AND created_at >= @since GROUP BY day ORDER BY day`
    : `SELECT date(d * 86400, 'unixepoch') AS day, sum(n) AS count FROM (
         SELECT created_at / ${DAY_MS} AS d, 1 AS n FROM signups WHERE ${where} AND created_at >= @since AND created_at < @firstDayStart
         UNION ALL
         SELECT day AS d, count AS n FROM signup_counts WHERE ${where} AND day >= @firstDay
       ) GROUP BY d HAVING sum(n) > 0 ORDER BY d`;
  return statement(db, sql).all({ ...params, ...windowParams(since) }) as { day: string; count: number }[];
}

/** A signup to insert; `customInputs` is the JSON text of an array of objects. */
export interface NewSignup {
  email: string;
  verified: boolean;
  referral: boolean;
  customInputs: string;
  /** Epoch milliseconds; defaults to the `createdAt` argument of the insert. */
  createdAt?: number;
}

/**
 * A reusable insert into one waitlist that skips an email the waitlist already has (compared
 * case-insensitively, through the unique index). Returns true when the row was inserted.
 * Callers wrap many calls in one transaction.
 */
export function prepareSignupInsert(waitlistId: string, db: AppDatabase = getDb()): (signup: NewSignup, createdAt?: number) => boolean {
  const insert = statement(
    db,
    "INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (waitlist_id, lower(email)) DO NOTHING",
  );
  return (signup, createdAt = Date.now()) =>
    insert.run(waitlistId, signup.email, signup.verified ? 1 : 0, signup.referral ? 1 : 0, signup.customInputs, signup.createdAt ?? createdAt).changes === 1;
}
