import { and, asc, count, desc, eq, gte, lt, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signupCounts, signups } from "@/db/schema";
import { DAY_MS } from "@/lib/core/time";
import { afterPosition, type Position } from "@/lib/sqlite/keyset";
import { containsPattern, containsText } from "@/lib/sqlite/contains";
import { preparedOnce } from "@/lib/sqlite/statements";
import type { SignupSort, SortDirection } from "../sorting";
import { signupResponseSchema, type SignupResponse } from "./response";

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

const placeholder = sql.placeholder;

// Every statement below is prepared once per connection and filter shape (which filters a scope
// sets: the SQL depends on it), with the values bound to placeholders at each call.
interface FilterShape {
  verified: boolean;
  referral: boolean;
  search: boolean;
}

function shapeOf(scope: SignupScope): FilterShape {
  return { verified: scope.verified !== undefined, referral: scope.referral !== undefined, search: Boolean(scope.search) };
}

function shapeKey(shape: FilterShape): string {
  return `${shape.verified ? "v" : "-"}${shape.referral ? "r" : "-"}${shape.search ? "q" : "-"}`;
}

/** The values of a scope's placeholders (the driver's: 1/0 for booleans, a LIKE pattern). */
function scopeParams(scope: SignupScope) {
  return {
    waitlistId: scope.waitlistId,
    verified: scope.verified ? 1 : 0,
    referral: scope.referral ? 1 : 0,
    search: scope.search ? containsPattern(scope.search) : null,
  };
}

/** Waitlist, verified and referral: columns that signups and signup_counts share. */
function filterWhere(table: typeof signups | typeof signupCounts, shape: FilterShape): SQL | undefined {
  return and(
    eq(table.waitlistId, placeholder("waitlistId")),
    shape.verified ? eq(table.verified, placeholder("verified")) : undefined,
    shape.referral ? eq(table.referral, placeholder("referral")) : undefined,
  );
}

function scopeWhere(shape: FilterShape): SQL | undefined {
  return and(filterWhere(signups, shape), shape.search ? containsText(signups.email, "search") : undefined);
}

// SQLite writes the API's JSON itself, so a page or a stream never round-trips through JSON.parse:
// one expression per field of signupResponseSchema (the Record makes TypeScript ask for each), in
// the schema's order. A unit test compares the result with toSignupResponse.
const SIGNUP_JSON_FIELDS: Record<keyof SignupResponse, SQL> = {
  email: sql`${signups.email}`,
  verified: sql`json(iif(${signups.verified}, 'true', 'false'))`,
  referral: sql`json(iif(${signups.referral}, 'true', 'false'))`,
  custom_inputs: sql`json(${signups.customInputs})`,
};
const signupJson = sql<string>`json_object(${sql.join(
  (Object.keys(signupResponseSchema.shape) as (keyof SignupResponse)[]).map((field) => sql`${sql.raw(`'${field}'`)}, ${SIGNUP_JSON_FIELDS[field]}`),
  sql`, `,
)})`;

// Rows come as raw arrays (.values()) in this order, mapped here: 2.70 s of CPU for an export's
// 600,000 rows, against 3.98 s through Drizzle's row mapping (and 3.72 s for better-sqlite3's objects).
const ROW_FIELDS = {
  id: signups.id,
  email: signups.email,
  verified: signups.verified,
  referral: signups.referral,
  customInputs: signups.customInputs,
  createdAt: signups.createdAt,
};
type RawRow = [id: number, email: string, verified: 0 | 1, referral: 0 | 1, customInputs: string, createdAt: number];

function toSignupRow([id, email, verified, referral, customInputs, createdAt]: RawRow): SignupRow {
  return { id, email, verified: verified === 1, referral: referral === 1, customInputs: JSON.parse(customInputs) as Record<string, unknown>[], createdAt: new Date(createdAt) };
}

const AFTER = { createdAt: placeholder("afterCreatedAt"), id: placeholder("afterId") };
const CREATION_ORDER = [asc(signups.createdAt), asc(signups.id)];

function jsonPageStatement(db: AppDatabase, shape: FilterShape, continued: boolean) {
  return preparedOnce(db, `signups.jsonPage:${shapeKey(shape)}:${continued ? "after" : "first"}`, () =>
    db
      .select({ createdAt: signups.createdAt, id: signups.id, json: signupJson })
      .from(signups)
      .where(and(scopeWhere(shape), continued ? afterPosition(signups.createdAt, signups.id, AFTER) : undefined))
      .orderBy(...CREATION_ORDER)
      .limit(placeholder("take"))
      .prepare(),
  );
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
  // Raw rows (.values()): [created_at, id, json], without mapping a Date per row.
  const rows = jsonPageStatement(db, shapeOf(scope), after !== undefined).values({
    ...scopeParams(scope),
    afterCreatedAt: after?.createdAt ?? null,
    afterId: after?.id ?? null,
    take: limit + 1,
  }) as [number, number, string][];
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

function rowBatchStatement(db: AppDatabase, shape: FilterShape) {
  return preparedOnce(db, `signups.rowBatch:${shapeKey(shape)}`, () =>
    db
      .select(ROW_FIELDS)
      .from(signups)
      .where(and(scopeWhere(shape), afterPosition(signups.createdAt, signups.id, AFTER)))
      .orderBy(...CREATION_ORDER)
      .limit(placeholder("take"))
      .prepare(),
  );
}

/** Every signup of a scope in creation order, as batches of rows (for exports). */
export function* signupRowBatches(scope: SignupScope, batchSize = 1000, db: AppDatabase = getDb()) {
  const statement = rowBatchStatement(db, shapeOf(scope));
  const params = scopeParams(scope);
  let after: Position = { createdAt: -1, id: -1 };
  for (;;) {
    const rows = statement.values({ ...params, afterCreatedAt: after.createdAt, afterId: after.id, take: batchSize }) as RawRow[];
    if (rows.length === 0) return;
    yield rows.map(toSignupRow);
    const [id, , , , , createdAt] = rows[rows.length - 1]!;
    after = { createdAt, id };
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

// The SQL of each sort the dashboard offers: a whitelist, never text from the request.
const ORDER_EXPRESSIONS: Record<SignupSort, SQLWrapper> = { created_at: signups.createdAt, email: sql`lower(${signups.email})` };

function offsetPageStatement(db: AppDatabase, shape: FilterShape, sort: SignupSort, direction: SortDirection) {
  const order = direction === "asc" ? asc : desc;
  return preparedOnce(db, `signups.offsetPage:${shapeKey(shape)}:${sort}:${direction}`, () =>
    db
      .select(ROW_FIELDS)
      .from(signups)
      .where(scopeWhere(shape))
      .orderBy(order(ORDER_EXPRESSIONS[sort]), order(signups.id))
      .limit(placeholder("limit"))
      .offset(placeholder("offset"))
      .prepare(),
  );
}

/** One page by offset, for the dashboard's numbered pages. Ties are broken by id in the same direction. */
export function listSignupRows({ scope, sort = "created_at", direction = "desc", offset, limit }: OffsetPageInput, db: AppDatabase = getDb()): SignupRow[] {
  return (offsetPageStatement(db, shapeOf(scope), sort, direction).values({ ...scopeParams(scope), limit, offset }) as RawRow[]).map(toSignupRow);
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

function countCellsStatement(db: AppDatabase, search: boolean) {
  const shape: FilterShape = { verified: false, referral: false, search };
  return preparedOnce(db, `signups.countCells:${shapeKey(shape)}`, () =>
    search
      ? db
          .select({ verified: signups.verified, referral: signups.referral, n: count() })
          .from(signups)
          .where(scopeWhere(shape))
          .groupBy(signups.verified, signups.referral)
          .prepare()
      : db
          .select({ verified: signupCounts.verified, referral: signupCounts.referral, n: sql<number>`sum(${signupCounts.count})` })
          .from(signupCounts)
          .where(filterWhere(signupCounts, shape))
          .groupBy(signupCounts.verified, signupCounts.referral)
          .prepare(),
  );
}

export function countSignups(scope: SignupScope, db: AppDatabase = getDb()): SignupCounts {
  const cells = countCellsStatement(db, Boolean(scope.search)).all(scopeParams(scope));
  const sum = (verified?: boolean, referral?: boolean) =>
    cells
      .filter((cell) => (verified === undefined || cell.verified === verified) && (referral === undefined || cell.referral === referral))
      .reduce((total, cell) => total + cell.n, 0);
  return {
    total: sum(scope.verified, scope.referral),
    verified: scope.verified === false ? 0 : sum(true, scope.referral),
    referral: scope.referral === false ? 0 : sum(scope.verified, true),
    verifiedFacet: { yes: sum(true, scope.referral), no: sum(false, scope.referral) },
    referralFacet: { yes: sum(scope.verified, true), no: sum(scope.verified, false) },
  };
}

/** `since` and the first whole UTC day at or after it (a signup_counts day and its first instant). */
function windowParams(since: Date) {
  const firstDay = Math.ceil(since.getTime() / DAY_MS);
  return { since: since.getTime(), firstDay, firstDayStart: firstDay * DAY_MS };
}

/** The signups of a scope from `since` up to the first whole day (the part signup_counts cannot give). */
function beforeFirstDay(shape: FilterShape): SQL | undefined {
  return and(scopeWhere(shape), gte(signups.createdAt, placeholder("since")), lt(signups.createdAt, placeholder("firstDayStart")));
}

function fromFirstDay(shape: FilterShape): SQL | undefined {
  return and(filterWhere(signupCounts, shape), gte(signupCounts.day, placeholder("firstDay")));
}

function countSinceStatement(db: AppDatabase, shape: FilterShape) {
  return preparedOnce(db, `signups.countSince:${shapeKey(shape)}`, () =>
    shape.search
      ? db
          .select({ n: count() })
          .from(signups)
          .where(and(scopeWhere(shape), gte(signups.createdAt, placeholder("since"))))
          .prepare()
      : db
          .select({ n: count() })
          .from(signups)
          .where(beforeFirstDay(shape))
          .unionAll(db.select({ n: sql<number>`coalesce(sum(${signupCounts.count}), 0)` }).from(signupCounts).where(fromFirstDay(shape)))
          .prepare(),
  );
}

/** Signups of a scope created at or after `since`. */
export function countSignupsSince(scope: SignupScope, since: Date, db: AppDatabase = getDb()): number {
  const parts = countSinceStatement(db, shapeOf(scope)).all({ ...scopeParams(scope), ...windowParams(since) });
  return parts.reduce((total, part) => total + part.n, 0);
}

const dayMs = sql.raw(String(DAY_MS));

function perDayStatement(db: AppDatabase, shape: FilterShape) {
  return preparedOnce(db, `signups.perDay:${shapeKey(shape)}`, () => {
    if (shape.search) {
      const day = sql<string>`date(${signups.createdAt} / 1000, 'unixepoch')`;
      return db
        .select({ day, count: count() })
        .from(signups)
        .where(and(scopeWhere(shape), gte(signups.createdAt, placeholder("since"))))
        .groupBy(day)
        .orderBy(day)
        .prepare();
    }
    const cells = db
      .select({ d: sql<number>`${signups.createdAt} / ${dayMs}`.as("d"), n: sql<number>`1`.as("n") })
      .from(signups)
      .where(beforeFirstDay(shape))
      .unionAll(db.select({ d: signupCounts.day, n: signupCounts.count }).from(signupCounts).where(fromFirstDay(shape)))
      .as("cells");
    const d = sql`${cells.d}`;
    return db
      .select({ day: sql<string>`date(${d} * ${sql.raw(String(DAY_MS / 1000))}, 'unixepoch')`, count: sql<number>`sum(${cells.n})` })
      .from(cells)
      .groupBy(d)
      .having(sql`sum(${cells.n}) > 0`)
      .orderBy(d)
      .prepare();
  });
}

/** Signups per UTC day from `since` on, as [{ day: "YYYY-MM-DD", count }] for days that have any. */
export function signupsPerDay(scope: SignupScope, since: Date, db: AppDatabase = getDb()): { day: string; count: number }[] {
  return perDayStatement(db, shapeOf(scope)).all({ ...scopeParams(scope), ...windowParams(since) });
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

// Raw SQL run by better-sqlite3: Drizzle's run() cost 3.2 µs more per row (20.2 → 23.4 µs of CPU), 10 % of an import.
function insertStatement(db: AppDatabase) {
  return preparedOnce(db, "signups.insert", () =>
    db.$client.prepare<[string, string, number, number, string, number]>(
      "INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (waitlist_id, lower(email)) DO NOTHING",
    ),
  );
}

/**
 * A reusable insert into one waitlist that skips an email the waitlist already has (compared
 * case-insensitively, through the unique index). Returns true when the row was inserted.
 * Callers wrap many calls in one transaction.
 */
export function prepareSignupInsert(waitlistId: string, db: AppDatabase = getDb()): (signup: NewSignup, createdAt?: number) => boolean {
  const insert = insertStatement(db);
  return (signup, createdAt = Date.now()) =>
    insert.run(waitlistId, signup.email, signup.verified ? 1 : 0, signup.referral ? 1 : 0, signup.customInputs, signup.createdAt ?? createdAt).changes === 1;
}
