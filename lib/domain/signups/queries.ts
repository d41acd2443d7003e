import { and, asc, desc, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { afterPosition, type Position } from "@/lib/store/keyset";
import { dialectOf, type Dialect } from "@/lib/store/dialect";
import { preparedOnce } from "@/lib/store/statements";
import type { SignupSort, SortDirection } from "../sorting";
import { signupPositions } from "../joining/position";
import type { LineKey } from "../ranking/line";
import { lineRows } from "../ranking/line-scope";
import { aggregatePlan, deepPageAccess, planAccess, planned, planScope, type PlannedScope } from "./access";
import type { SignupScope } from "./filter";
import { DEFAULT_SIGNUP_FIELDS, SIGNUP_FIELDS, type SignupField } from "./response";
import type { SignupRow } from "./row";
import type { SignupStatus } from "./status";
import type { SignupSource } from "../funnel/source";
import { scopeWhere, shapeKey, type ScopeShape } from "./scope-sql";


const placeholder = sql.placeholder;

// The database writes the API's JSON itself, so a page or a stream never round-trips through JSON.parse:
// one expression per field a client may ask for (the Record makes TypeScript ask for each), in the
// order the client's fields list them. A unit test compares the result with toSignupResponse, and
// tests/unit/lib/store/dialect-parity.test.ts the two engines' bytes.
function signupJsonFields(d: Dialect): Record<SignupField, SQL> {
  return {
    email: d.jsonString(sql`${signups.email}`),
    verified: d.jsonBoolean(signups.verified),
    referral: d.jsonBoolean(signups.referral),
    custom_inputs: d.jsonEmbedded(signups.customInputs),
    created_at: d.jsonString(isoCreatedAt(d)),
    id: d.jsonString(sql`cast(${signups.id} as text)`),
    status: d.jsonString(sql`${signups.status}`),
    status_changed_at: d.jsonString(isoStatusChangedAt(d)),
    utm_source: d.jsonString(sql`${signups.utmSource}`),
    utm_medium: d.jsonString(sql`${signups.utmMedium}`),
    utm_campaign: d.jsonString(sql`${signups.utmCampaign}`),
    referrer: d.jsonString(sql`${signups.referrer}`),
  };
}

// ISO 8601 in UTC with milliseconds, as Date.prototype.toISOString writes it (also before 1970).
const isoCreatedAt = (d: Dialect) => d.isoTimestamp(signups.createdAt);
const isoStatusChangedAt = (d: Dialect) => d.isoTimestampOrNull(signups.statusChangedAt);

/** A signup's JSON text (the API's object with these fields, in this order) as SQL over the table `signups`. */
export function signupJsonSql(d: Dialect, fields: readonly SignupField[]): SQL<string> {
  const json = signupJsonFields(d);
  return sql<string>`${d.jsonObject(fields.map((field) => [field, json[field]] as const))}`;
}

/**
 * A signup's JSON with the eight fields up to `status_changed_at` as SQL over the table `signups`, for statements written
 * by hand: an event's body is this snapshot of its signup (lib/domain/event-snapshot.ts). Its source fields stay out of webhooks.
 */
export function signupSnapshotJsonSql(d: Dialect): SQL<string> {
  return signupJsonSql(d, SIGNUP_FIELDS.slice(0, SIGNUP_FIELDS.indexOf("status_changed_at") + 1));
}

// Rows come as raw arrays (.values()) in this order, mapped here: 2.70 s of CPU for an export's
// 600,000 rows, against 3.98 s through Drizzle's row mapping (and 3.72 s for better-sqlite3's objects).
const ROW_FIELDS = {
  id: signups.id,
  email: signups.email,
  verified: signups.verified,
  referral: signups.referral,
  customInputs: signups.customInputs,
  createdAt: signups.createdAt,
  status: signups.status,
  statusChangedAt: signups.statusChangedAt,
};
type RawRow = [id: number, email: string, verified: 0 | 1, referral: 0 | 1, customInputs: string, createdAt: number, status: SignupStatus, statusChangedAt: number | null];

function toSignupRow([id, email, verified, referral, customInputs, createdAt, status, statusChangedAt]: RawRow): SignupRow {
  return {
    id,
    email,
    verified: verified === 1,
    referral: referral === 1,
    customInputs: JSON.parse(customInputs) as Record<string, unknown>[],
    createdAt: new Date(createdAt),
    status,
    statusChangedAt: statusChangedAt === null ? null : new Date(statusChangedAt),
  };
}

/**
 * The shape that reads a scope's rows in creation order (or in `sort`'s) the cheapest way (see access.ts), with its
 * values; `reach`, how far into the scope an offset page ends, where the dialect collects deep pages (deepPageAccess).
 */
export async function rowsShape(scope: SignupScope, db: AppDatabase, sort: SignupSort = "created_at", reach?: number): Promise<PlannedScope> {
  const plan = await planAccess(scope, db);
  const access = sort === "created_at" ? plan.rows : plan.rowsAnyOrder;
  return planned(scope, plan, reach !== undefined && dialectOf(db).collectsDeepPages ? deepPageAccess(plan, access, reach) : access);
}

/** The shape that reads every row of a scope the cheapest way, in no particular order, with its values. */
export async function countShape(scope: SignupScope, db: AppDatabase): Promise<PlannedScope> {
  return await planScope(scope, (plan) => plan.count, db, aggregatePlan);
}

const AFTER = { createdAt: placeholder("afterCreatedAt"), id: placeholder("afterId") };
const CREATION_ORDER = [asc(signups.createdAt), asc(signups.id)];

function jsonPageStatement(db: AppDatabase, shape: ScopeShape, continued: boolean, fields: readonly SignupField[]) {
  return preparedOnce(db, `signups.jsonPage:${shapeKey(shape)}:${continued ? "after" : "first"}:${fields.join(",")}`, () =>
    db
      .select({ createdAt: signups.createdAt, id: signups.id, json: signupJsonSql(dialectOf(db), fields) })
      .from(signups)
      .where(and(scopeWhere(shape, dialectOf(db)), continued ? afterPosition(dialectOf(db), signups.createdAt, signups.id, AFTER) : undefined))
      .orderBy(...CREATION_ORDER)
      .limit(placeholder("take"))
      .prepare(),
  );
}

export interface KeysetPageInput {
  scope: SignupScope;
  limit: number;
  after?: Position;
  /** The fields of each JSON object, in this order (default: the specification's four). */
  fields?: readonly SignupField[];
}

/**
 * One keyset page in creation order (created_at, then id), as JSON texts of API objects.
 * `next` is the position to continue from, or null on the last page.
 */
export async function signupJsonPage({ scope, limit, after, fields = DEFAULT_SIGNUP_FIELDS }: KeysetPageInput, db: AppDatabase = getDb()) {
  // Raw rows (.values()): [created_at, id, json], without mapping a Date per row.
  const { shape, params } = await rowsShape(scope, db);
  const rows = await jsonPageStatement(db, shape, after !== undefined, fields).values({
    ...params,
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
 * One keyset page of a scope's line (its waiting signups in place order), as JSON texts of API
 * objects; `next` is the place to continue after, or null on the last page.
 */
export async function signupJsonLinePage({ scope, limit, after, fields = DEFAULT_SIGNUP_FIELDS }: Omit<KeysetPageInput, "after"> & { after?: LineKey }, db: AppDatabase = getDb()) {
  const rows = await lineRows(scope, `json:${fields.join(",")}`, signupJsonSql(dialectOf(db), fields), { after, take: limit + 1 }, db) as [number, number, number, string][];
  const page = rows.length > limit ? rows.slice(0, limit) : rows;
  const last = page.at(-1);
  const next: LineKey | null = rows.length > limit && last ? { at: last[0], pos: last[1], id: last[2] } : null;
  return { items: page.map((row) => row[3]), next };
}

/** Every signup of a scope's line in place order, as batches of JSON texts (as signupJsonBatches). */
export async function* signupJsonLineBatches(scope: SignupScope, batchSize = 1000, db: AppDatabase = getDb(), fields: readonly SignupField[] = DEFAULT_SIGNUP_FIELDS) {
  let after: LineKey | undefined;
  do {
    const page = await signupJsonLinePage({ scope, limit: batchSize, after, fields }, db);
    if (page.items.length > 0) yield page.items;
    after = page.next ?? undefined;
  } while (after);
}

/**
 * Every signup of a scope in creation order, as batches of JSON texts. No statement stays open
 * between batches, so writers on the same connection are never blocked by a slow reader.
 */
export async function* signupJsonBatches(scope: SignupScope, batchSize = 1000, db: AppDatabase = getDb(), fields: readonly SignupField[] = DEFAULT_SIGNUP_FIELDS) {
  let after: Position | undefined;
  do {
    const page = await signupJsonPage({ scope, limit: batchSize, after, fields }, db);
    if (page.items.length > 0) yield page.items;
    after = page.next ?? undefined;
  } while (after);
}

// An export's fields without a Date per row (in the server, where Next.js replaces the Date
// constructor, those Dates were most of an export's garbage): created_at as the API's JSON writes it
// (toISOString's text), custom_inputs as stored; the keyset position first.
const textFields = (d: Dialect) => ({
  createdAtMs: signups.createdAt,
  id: signups.id,
  email: signups.email,
  verified: signups.verified,
  referral: signups.referral,
  customInputs: signups.customInputs,
  createdAt: isoCreatedAt(d),
  status: signups.status,
  statusChangedAt: isoStatusChangedAt(d),
});

/** A signup as an export reads it: custom_inputs the stored JSON text, created_at ISO 8601 as toISOString writes it. */
export type SignupTextRow = [
  createdAtMs: number,
  id: number,
  email: string,
  verified: 0 | 1,
  referral: 0 | 1,
  customInputs: string,
  createdAt: string,
  status: SignupStatus,
  statusChangedAt: string | null,
];

function textPageStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedOnce(db, `signups.textPage:${shapeKey(shape)}`, () =>
    db
      .select(textFields(dialectOf(db)))
      .from(signups)
      .where(and(scopeWhere(shape, dialectOf(db)), afterPosition(dialectOf(db), signups.createdAt, signups.id, AFTER)))
      .orderBy(...CREATION_ORDER)
      .limit(placeholder("take"))
      .prepare(),
  );
}

/**
 * Up to `limit` signups of a scope in creation order after `after` (from the first when undefined),
 * as texts; `next` is where the following page starts, undefined after the last. Between pages a
 * caller keeps only that position (the dashboard's CSV export, lib/domain/signups/csv.ts).
 */
export async function signupTextPage(scope: SignupScope, after: Position | undefined, limit: number, db: AppDatabase = getDb()): Promise<{ rows: SignupTextRow[]; next: Position | undefined }> {
  const from = after ?? { createdAt: Number.MIN_SAFE_INTEGER, id: -1 };
  const { shape, params } = await rowsShape(scope, db);
  const rows = await textPageStatement(db, shape).values({ ...params, afterCreatedAt: from.createdAt, afterId: from.id, take: limit }) as SignupTextRow[];
  const last = rows.length === limit ? rows[rows.length - 1] : undefined;
  return { rows, next: last && { createdAt: last[0], id: last[1] } };
}

function rowBatchStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedOnce(db, `signups.rowBatch:${shapeKey(shape)}`, () =>
    db
      .select(ROW_FIELDS)
      .from(signups)
      .where(and(scopeWhere(shape, dialectOf(db)), afterPosition(dialectOf(db), signups.createdAt, signups.id, AFTER)))
      .orderBy(...CREATION_ORDER)
      .limit(placeholder("take"))
      .prepare(),
  );
}

/** Every signup of a scope in creation order, as batches of rows (for exports). */
export async function* signupRowBatches(scope: SignupScope, batchSize = 1000, db: AppDatabase = getDb()) {
  const { shape, params } = await rowsShape(scope, db);
  const statement = rowBatchStatement(db, shape);
  let after: Position = { createdAt: Number.MIN_SAFE_INTEGER, id: -1 };
  for (;;) {
    const rows = await statement.values({ ...params, afterCreatedAt: after.createdAt, afterId: after.id, take: batchSize }) as RawRow[];
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
const ORDER_EXPRESSIONS: Record<Exclude<SignupSort, "position">, SQLWrapper> = { created_at: signups.createdAt, email: sql`lower(${signups.email})` };

function offsetPageStatement(db: AppDatabase, shape: ScopeShape, sort: Exclude<SignupSort, "position">, direction: SortDirection) {
  const order = direction === "asc" ? asc : desc;
  return preparedOnce(db, `signups.offsetPage:${shapeKey(shape)}:${sort}:${direction}`, () =>
    db
      .select(ROW_FIELDS)
      .from(signups)
      .where(scopeWhere(shape, dialectOf(db)))
      .orderBy(order(ORDER_EXPRESSIONS[sort]), order(signups.id))
      .limit(placeholder("limit"))
      .offset(placeholder("offset"))
      .prepare(),
  );
}

async function offsetPage(scope: SignupScope, sort: Exclude<SignupSort, "position">, direction: SortDirection, offset: number, limit: number, db: AppDatabase): Promise<RawRow[]> {
  const { shape, params } = await rowsShape(scope, db, sort, offset + limit);
  return await offsetPageStatement(db, shape, sort, direction).values({ ...params, limit, offset }) as RawRow[];
}

const ROW_COLUMNS = sql.join(Object.values(ROW_FIELDS), sql`, `);

/** Every signup of a scope's line in place order, as batches of rows (the CLI's export with --sort position). */
export async function* signupLineRowBatches(scope: SignupScope, batchSize = 1000, db: AppDatabase = getDb()) {
  let after: LineKey | undefined;
  for (;;) {
    const rows = await lineRows(scope, "rows", ROW_COLUMNS, { after, take: batchSize }, db);
    if (rows.length === 0) return;
    yield rows.map((row) => toSignupRow(row.slice(3) as RawRow));
    const last = rows[rows.length - 1]!;
    after = { at: last[0] as number, pos: last[1] as number, id: last[2] as number };
    if (rows.length < batchSize) return;
  }
}

/**
 * One page by offset, for the dashboard's numbered pages, each waiting signup with its place in the
 * whole line (filters only choose which rows are shown). Ties are broken by id in the same
 * direction. By `position`: the line itself, waiting signups only (lib/domain/ranking/line-scope.ts).
 */
export async function listSignupRows({ scope, sort = "created_at", direction = "desc", offset, limit }: OffsetPageInput, db: AppDatabase = getDb()): Promise<(SignupRow & { position: number | null })[]> {
  const rows =
    sort === "position"
      ? (await lineRows(scope, "rows", ROW_COLUMNS, { offset, take: limit, descending: direction === "desc" }, db)).map((row) => row.slice(3) as RawRow)
      : await offsetPage(scope, sort, direction, offset, limit, db);
  const signups = rows.map(toSignupRow);
  const places = await signupPositions(scope.waitlistId, signups.flatMap((signup) => (signup.status === "waiting" ? [signup.id] : [])), db);
  return signups.map((signup) => ({ ...signup, position: places.get(signup.id) ?? null }));
}

function oneSignupStatement(db: AppDatabase) {
  return preparedOnce(db, "signups.one", () =>
    db
      .select(ROW_FIELDS)
      .from(signups)
      .where(and(eq(signups.waitlistId, placeholder("waitlistId")), eq(signups.id, placeholder("id"))))
      .prepare(),
  );
}

/** One signup of a waitlist by its internal id (see id.ts for the public form), or undefined. */
export async function getSignup(waitlistId: string, signupId: number, db: AppDatabase = getDb()): Promise<SignupRow | undefined> {
  const row = (await oneSignupStatement(db).values({ waitlistId, id: signupId }))[0] as RawRow | undefined;
  return row && toSignupRow(row);
}

/** A signup to insert; `customInputs` is the JSON text of an array of objects. */
export interface NewSignup {
  email: string;
  verified: boolean;
  referral: boolean;
  customInputs: string;
  /** Epoch milliseconds; defaults to the `createdAt` argument of the insert. */
  createdAt?: number;
  /** Default `waiting`; an import of an export keeps the exported status (and when it changed, epoch ms). */
  status?: SignupStatus;
  statusChangedAt?: number | null;
  /** Where it came from (lib/domain/funnel/source.ts), and when it was first invited and completed (epoch ms): the funnel's, absent from imports. */
  source?: SignupSource;
  invitedAt?: number;
  completedAt?: number;
}

