import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signupInputCounts, signupInputStatusCounts, signups } from "@/db/schema";
import { DAY_MS } from "@/lib/core/time";
import { memoizeWhileUnchanged } from "@/lib/store/memoize";
import { dialectOf } from "@/lib/store/dialect";
import { preparedOnce, preparedSql } from "@/lib/store/statements";
import { aggregatePlan, cappedAccess, planned, SEARCH_COUNT_CAP } from "./access";
import { scopeKey, setFilters, withoutFlags, type SignupScope } from "./filter";
import { SIGNUP_STATUSES, type SignupStatus } from "./status";
import { inputSliceOf, sliceCells, sliceExceeds, slicePerDay, statusedSliceOf, type InputSlice } from "./input-slice";
import { countShape } from "./queries";
import { canUseSearchIndex, newestFirst, scopeParams, scopeWhere, searchDrivenRows, shapeKey, shapeOf, type ScopeShape } from "./scope-sql";

/** Counts of one scope split by verified × referral; every total and facet derives from them. */
export interface SignupCounts {
  total: number;
  verified: number;
  referral: number;
  /** How many signups each verified option would show under the other active filters. */
  verifiedFacet: { yes: number; no: number };
  /** How many signups each referral option would show under the other active filters. */
  referralFacet: { yes: number; no: number };
  /** How many signups each status would show under the other active filters. */
  statusFacet: Record<SignupStatus, number>;
  /**
   * False when an email search matched more than SEARCH_COUNT_CAP signups: `total` is then that
   * cap, a lower bound ("10,000+"), and the other numbers are not known.
   */
  exact: boolean;
}

interface Cell {
  verified: boolean | number;
  referral: boolean | number;
  /** Absent where the source keeps no status (the custom-input counts): see statusOfSlice. */
  status?: SignupStatus;
  n: number;
}

// Where counts come from, cheapest first:
// - only verified/referral/date filters: signup_counts (kept exact by triggers): whole UTC days from
//   there, and from signups only the parts of the first and last day that the range cuts;
// - one custom-input filter and nothing else: signup_input_counts; with a date range as well, that
//   range of signup_inputs' key (input-slice.ts);
// - anything else: the scope's rows, reached the cheapest way (access.ts), grouped.
function usesDayCounts(scope: SignupScope): boolean {
  return setFilters(scope).every(({ descriptor }) => descriptor.aggregated) && (scope.inputs?.length ?? 0) === 0;
}

const FAR = 8.64e15; // the largest Date, in ms

/** Whole UTC days of a range (day numbers, end exclusive) and the cut parts before and after them. */
function rangeParams(scope: SignupScope) {
  const since = scope.createdSince?.getTime() ?? -FAR;
  const until = scope.createdUntil?.getTime() ?? FAR;
  const firstDay = Math.ceil(since / DAY_MS);
  const endDay = Math.floor(until / DAY_MS);
  if (firstDay >= endDay) return { waitlistId: scope.waitlistId, since, headEnd: until, tailStart: until, until, firstDay: 0, endDay: 0 };
  return { waitlistId: scope.waitlistId, since, headEnd: firstDay * DAY_MS, tailStart: endDay * DAY_MS, until, firstDay, endDay };
}

const placeholder = sql.placeholder;
const CUT_PARTS = sql`SELECT verified, referral, status, created_at / ${sql.raw(String(DAY_MS))} AS day, count(*) AS n FROM signups
  WHERE waitlist_id = ${placeholder("waitlistId")} AND created_at >= ${placeholder("since")} AND created_at < ${placeholder("headEnd")} GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT verified, referral, status, created_at / ${sql.raw(String(DAY_MS))}, count(*) FROM signups
  WHERE waitlist_id = ${placeholder("waitlistId")} AND created_at >= ${placeholder("tailStart")} AND created_at < ${placeholder("until")} GROUP BY 1, 2, 3, 4
  UNION ALL
  SELECT verified, referral, status, day, count FROM signup_counts WHERE waitlist_id = ${placeholder("waitlistId")} AND day >= ${placeholder("firstDay")} AND day < ${placeholder("endDay")}`;

function dayCellsStatement(db: AppDatabase) {
  // In SQL: CUT_PARTS, a UNION ALL of grouped reads, is the same fragment dayPerDay nests with the statuses' JSON array.
  return preparedSql<Cell>(db, "counts.dayCells", (d) => sql`SELECT verified, referral, status, sum(n) AS n FROM (${CUT_PARTS})${d.subqueryName("cells")} GROUP BY 1, 2, 3`);
}

function inputCellsStatement(db: AppDatabase) {
  return preparedOnce(db, "counts.inputCells", () =>
    db
      .select({ verified: signupInputCounts.verified, referral: signupInputCounts.referral, n: sql<number>`sum(${signupInputCounts.count})` })
      .from(signupInputCounts)
      .where(and(eq(signupInputCounts.waitlistId, sql.placeholder("waitlistId")), eq(signupInputCounts.label, sql.placeholder("label")), eq(signupInputCounts.value, sql.placeholder("value"))))
      .groupBy(signupInputCounts.verified, signupInputCounts.referral)
      .prepare(),
  );
}

/** The pair's signups that are not waiting, by flags and status (signup_input_status_counts, migration 0012). */
function inputStatusCellsStatement(db: AppDatabase) {
  return preparedOnce(db, "counts.inputStatusCells", () =>
    db
      .select({ verified: signupInputStatusCounts.verified, referral: signupInputStatusCounts.referral, status: signupInputStatusCounts.status, n: signupInputStatusCounts.count })
      .from(signupInputStatusCounts)
      .where(
        and(eq(signupInputStatusCounts.waitlistId, sql.placeholder("waitlistId")), eq(signupInputStatusCounts.label, sql.placeholder("label")), eq(signupInputStatusCounts.value, sql.placeholder("value"))),
      )
      .prepare(),
  );
}

function rowCellsStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedOnce(db, `counts.rowCells:${shapeKey(shape)}`, () =>
    db
      .select({ verified: signups.verified, referral: signups.referral, status: signups.status, n: count() })
      .from(signups)
      .where(scopeWhere(shape, dialectOf(db)))
      .groupBy(signups.verified, signups.referral, signups.status)
      .prepare(),
  );
}

// Capped either way: from the trigram index when the text has trigrams, else by walking the list.
function cappedCountStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedSql<{ n: number }>(db, `counts.capped:${shapeKey(shape)}`, (d) =>
    shape.access === "search"
      ? sql`select count(*) as n from (${searchDrivenRows(shape, d)})${d.subqueryName("found")}`
      : sql`select count(*) as n from (select 1 from ${signups} where ${scopeWhere(shape, d)}${newestFirst(shape)} limit ${sql.placeholder("cap")})${d.subqueryName("found")}`,
  );
}

/** Whether an email search matches more than SEARCH_COUNT_CAP signups (then only a lower bound is given). */
export async function exceedsSearchCap(scope: SignupScope, db: AppDatabase = getDb()): Promise<boolean> {
  if (scope.emailContains === undefined) return false;
  const plan = await aggregatePlan(scope, db);
  if (plan.bound <= SEARCH_COUNT_CAP) return false;
  // Over the whole list (flags aside), the trigram index finds the first matches of a common text
  // soonest, and over a date range that holds most of it too (the dashboard's chart cuts its scope at
  // the end of today: "ana" on a 1M list walked 500,000 signups that way, 87 ms, against 8 ms); a short
  // range or an input filter is cheapest through the scope's own plan.
  const noRange = !scope.createdSince && !scope.createdUntil;
  const mostOfList = (scope.inputs?.length ?? 0) === 0 && plan.rangeShare >= 0.5;
  // The search is the only filter: the plan's probe has counted this very scope up to the cap already.
  if (noRange && mostOfList && scope.verified === undefined && scope.referral === undefined && scope.status === undefined && plan.searchOverCap) return true;
  const { shape, params } = planned(scope, plan, mostOfList && canUseSearchIndex(scope.emailContains) ? "search" : plan.count);
  // Remembered: the counts, the chart and the facets of one view all ask.
  return await memoizeWhileUnchanged(db, `overSearchCap:${scopeKey(scope)}`, async () => {
    const n = (await cappedCountStatement(db, shape).get({ ...params, cap: SEARCH_COUNT_CAP + 1 }))!.n;
    return n > SEARCH_COUNT_CAP;
  });
}

/** Whether a scope holds more than `cap` signups, reading at most cap + 1 of them. */
export async function exceedsRowCap(scope: SignupScope, cap: number, db: AppDatabase = getDb()): Promise<boolean> {
  if (!Number.isFinite(cap)) return false;
  const slice = inputSliceOf(scope) ?? statusedSliceOf(scope);
  if (slice) return sliceExceeds(scope, slice, cap, db);
  const plan = await aggregatePlan(scope, db);
  if (plan.bound <= cap) return false;
  const { shape, params } = planned(scope, plan, cappedAccess(plan, cap));
  return (await cappedCountStatement(db, shape).get({ ...params, cap: cap + 1 }))!.n > cap;
}

/** The scope's verified × referral × status cells, its own flag and status filters left out (the facets need the other options). */
async function cellsOf(scope: SignupScope, db: AppDatabase): Promise<Cell[]> {
  const unflagged = withoutFlags(scope);
  if (usesDayCounts(unflagged)) return await dayCellsStatement(db).all(rangeParams(scope));
  const slice = inputSliceOf(unflagged);
  if (slice && !scope.createdSince && !scope.createdUntil) {
    const pair = { waitlistId: scope.waitlistId, ...scope.inputs![0]! };
    return withStatuses(await inputCellsStatement(db).all(pair), await inputStatusCellsStatement(db).all(pair));
  }
  if (slice) return withStatuses(await sliceCells(slice, db), await unwaitingCellsStatement(db, shapeOf(unflagged, "order")).all(scopeParams(unflagged)));
  const { shape, params } = await countShape(unflagged, db);
  return await rowCellsStatement(db, shape).all(params);
}

// The signups of a scope that are not waiting: few where a list is drained a batch at a time, and found
// in the partial index signups_changed_status_idx (waitlist, status, created_at; migration 0010). The
// statuses are named one by one as well, so that a date range is a range of that index per status
// (under `<> 'waiting'` alone SQLite reads every such signup of the list to test its date).
const UNWAITING = sql.raw(`${signups.status.name} <> 'waiting' and ${signups.status.name} in (${SIGNUP_STATUSES.filter((status) => status !== "waiting").map((status) => `'${status}'`).join(", ")})`);

/** By flags and status. */
function unwaitingCellsStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedSql<Cell>(db, `counts.unwaiting:${shapeKey(shape)}`, (d) =>
    sql`select ${signups.verified} as verified, ${signups.referral} as referral, ${signups.status} as status, count(*) as n
      from ${signups} ${d.indexedBy("signups_changed_status_idx")}
      where ${UNWAITING} and ${scopeWhere(shape, d)} group by 1, 2, 3`,
  );
}

/** By UTC day and status. */
function unwaitingPerDayStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedSql<{ day: string; status: SignupStatus; n: number }>(db, `counts.unwaitingPerDay:${shapeKey(shape)}`, (d) =>
    sql`select ${d.utcDateOfMs(signups.createdAt)} as day, ${signups.status} as status, count(*) as n
      from ${signups} ${d.indexedBy("signups_changed_status_idx")}
      where ${UNWAITING} and ${scopeWhere(shape, d)} group by 1, 2`,
  );
}

/**
 * Per day, an input slice's signups in some statuses: the slice's days (signup_inputs keeps no
 * status), less its signups that are not waiting when `waiting` is asked for, plus those in the
 * other statuses asked for; the way countSignups splits the slice's cells.
 */
async function slicePerDayByStatus(window: SignupScope, slice: InputSlice, db: AppDatabase): Promise<DayCount[]> {
  const unstatused = { ...window, status: undefined };
  const wanted = new Set(window.status);
  const byDay = new Map<string, number>(wanted.has("waiting") ? (await slicePerDay(unstatused, slice, db)).map(({ day, count }) => [day, count]) : []);
  for (const { day, status, n } of await unwaitingPerDayStatement(db, shapeOf(unstatused, "order")).all(scopeParams(unstatused))) {
    const change = (wanted.has(status) ? n : 0) - (wanted.has("waiting") ? n : 0);
    byDay.set(day, (byDay.get(day) ?? 0) + change);
  }
  return [...byDay]
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, count]) => ({ day, count }));
}

/**
 * Cells without a status (signup_input_counts and signup_inputs keep none) split by status, given the
 * same scope's cells of the signups that are not waiting: the rest of each cell is waiting.
 */
function withStatuses(cells: Cell[], unwaiting: Cell[]): Cell[] {
  const waiting = cells.map((cell) => {
    const moved = unwaiting.filter((other) => Boolean(other.verified) === Boolean(cell.verified) && Boolean(other.referral) === Boolean(cell.referral)).reduce((total, other) => total + other.n, 0);
    return { ...cell, status: "waiting" as const, n: cell.n - moved };
  });
  return [...waiting, ...unwaiting];
}

export async function countSignups(scope: SignupScope, db: AppDatabase = getDb()): Promise<SignupCounts> {
  if (await exceedsSearchCap(scope, db)) {
    const unknown = { yes: 0, no: 0 };
    const statusFacet = Object.fromEntries(SIGNUP_STATUSES.map((status) => [status, 0])) as Record<SignupStatus, number>;
    return { total: SEARCH_COUNT_CAP, verified: 0, referral: 0, verifiedFacet: unknown, referralFacet: unknown, statusFacet, exact: false };
  }
  const cells = await cellsOf(scope, db);
  const statuses = scope.status;
  const sum = (verified?: boolean, referral?: boolean, status: readonly SignupStatus[] | undefined = statuses) =>
    cells
      .filter(
        (cell) =>
          (verified === undefined || Boolean(cell.verified) === verified) &&
          (referral === undefined || Boolean(cell.referral) === referral) &&
          (status === undefined || status.includes(cell.status!)),
      )
      .reduce((total, cell) => total + cell.n, 0);
  return {
    total: sum(scope.verified, scope.referral),
    verified: scope.verified === false ? 0 : sum(true, scope.referral),
    referral: scope.referral === false ? 0 : sum(scope.verified, true),
    verifiedFacet: { yes: sum(true, scope.referral), no: sum(false, scope.referral) },
    referralFacet: { yes: sum(scope.verified, true), no: sum(scope.verified, false) },
    statusFacet: Object.fromEntries(SIGNUP_STATUSES.map((status) => [status, sum(scope.verified, scope.referral, [status])])) as Record<SignupStatus, number>,
    exact: true,
  };
}

/** The scope narrowed to signups created at or after `since`. */
export function narrowedSince(scope: SignupScope, since: Date): SignupScope {
  const current = scope.createdSince;
  return { ...scope, createdSince: current && current > since ? current : since };
}

/**
 * The scope cut at `end` (exclusive). The dashboard's chart ends with its last day, and its "last 7
 * days" figure is cut at the same instant, so the two agree on signups dated in the future (an import
 * accepts up to 24 hours ahead): past the chart's end, neither counts them.
 */
export function cutAt(scope: SignupScope, end: Date): SignupScope {
  const current = scope.createdUntil;
  return { ...scope, createdUntil: current && current < end ? current : end };
}

/** Signups of a scope created at or after `since` (a lower bound, like countSignups, for a large search). */
export async function countSignupsSince(scope: SignupScope, since: Date, db: AppDatabase = getDb()): Promise<number> {
  return (await countSignups(narrowedSince(scope, since), db)).total;
}

interface DayCount {
  day: string;
  count: number;
}

function dayPerDayStatement(db: AppDatabase, flags: string) {
  // In SQL: CUT_PARTS (see dayCellsStatement), and the statuses as one JSON array, which Drizzle's builder has no form for.
  return preparedSql<DayCount>(
    db,
    `counts.dayPerDay:${flags}`,
    (d) => sql`SELECT ${d.utcDate(sql`day * ${sql.raw(String(DAY_MS / 1000))}`)} AS day, sum(n) AS count FROM (${CUT_PARTS})${d.subqueryName("cells")}
       WHERE true ${flags.includes("v") ? sql`AND verified = ${placeholder("verified")}` : sql``} ${flags.includes("r") ? sql`AND referral = ${placeholder("referral")}` : sql``}
       ${flags.includes("s") ? sql`AND status ${d.inJson(placeholder("status"))}` : sql``}
       GROUP BY 1 HAVING sum(n) > 0 ORDER BY 1`,
  );
}

function rowPerDayStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedOnce(db, `counts.rowPerDay:${shapeKey(shape)}`, () => {
    const day = dialectOf(db).utcDateOfMs(signups.createdAt) as SQL<string>;
    return db.select({ day, count: count() }).from(signups).where(scopeWhere(shape, dialectOf(db))).groupBy(day).orderBy(day).prepare();
  });
}

/**
 * Signups per UTC day from `since` on, as [{ day: "YYYY-MM-DD", count }] for days that have any;
 * null when an email search matches more than SEARCH_COUNT_CAP signups.
 */
export async function signupsPerDay(scope: SignupScope, since: Date, db: AppDatabase = getDb()): Promise<DayCount[] | null> {
  const window = narrowedSince(scope, since);
  if (usesDayCounts(window)) {
    const flags = `${window.verified !== undefined ? "v" : ""}${window.referral !== undefined ? "r" : ""}${window.status !== undefined ? "s" : ""}`;
    const status = window.status === undefined ? null : JSON.stringify(window.status);
    return await dayPerDayStatement(db, flags).all({ ...rangeParams(window), verified: window.verified ? 1 : 0, referral: window.referral ? 1 : 0, status });
  }
  const slice = inputSliceOf(window);
  if (slice) return slicePerDay(window, slice, db);
  // Any status here (not only those statusedSliceOf takes): the days are split by the partial index of the signups that are not waiting.
  const sliceWithoutStatus = window.status !== undefined ? inputSliceOf({ ...window, status: undefined }) : undefined;
  if (sliceWithoutStatus) return slicePerDayByStatus(window, sliceWithoutStatus, db);
  // The whole scope, not only the chart's window: a search counted as "10,000+" has no chart, and a
  // common text found in a few recent days would otherwise be looked for among all its matches.
  if (await exceedsSearchCap(scope, db)) return null;
  const { shape, params } = await countShape(window, db);
  return await rowPerDayStatement(db, shape).all(params) as DayCount[];
}
