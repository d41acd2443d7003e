import { and, between, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signupCounts, signupInputCounts, signups } from "@/db/schema";
import { DAY_MS } from "@/lib/core/time";
import { connectionOf } from "@/lib/store/connection";
import { containsPattern, containsText } from "@/lib/store/contains";
import { memoizeWhileUnchanged } from "@/lib/store/memoize";
import { preparedOnce, preparedSql } from "@/lib/store/statements";
import { scopeKey, setFilters, withoutFlags, type SignupScope } from "./filter";
import { FACET_ROW_CAP } from "./limits";
import { canUseSearchIndex, scopeParams, scopeWhere, searchIndexPattern, shapeKey, shapeOf, type Access, type ScopeParams, type ScopeShape } from "./scope-sql";

/**
 * An email search that matches more signups than this is counted as "10,000+" (a lower bound), as
 * search engines do: counting every match of a common text ("gmail") means reading them all.
 */
export const SEARCH_COUNT_CAP = 10_000;

/** A page is read from a collecting access (search, input) only when it collects at most this many rows to sort. */
const COLLECT_LIMIT = 10_000;

/** On a list (or date range) this small, walking it beats any index, and the search probe is skipped. */
const SMALL_LIST = 50_000;

export interface AccessPlan {
  /** How to reach the rows of a page in creation order. */
  rows: Access;
  /** How to reach the rows of a page in another order (the dashboard's sort by email). */
  rowsAnyOrder: Access;
  /** How to reach every row of the scope at the least cost (for counts). */
  count: Access;
  /** How to read the first FACET_ROW_CAP rows of the scope in any order at the least cost (the facets' rows and their cap check). */
  capped: Access;
  /** The fewest rows any access reads (an upper bound of the scope's size); above SEARCH_COUNT_CAP for a search only when every way is large. */
  bound: number;
  /** The email search alone (the waitlist's signups containing the text, other filters aside) matches more than SEARCH_COUNT_CAP. */
  searchOverCap: boolean;
  /** The share of the list's signups within the scope's date range (1 without one). */
  rangeShare: number;
  /** The share of the walked signups the sized filters keep (status, inputs; taken as independent): 1 when none was sized, 0 when the scope is never walked for them. */
  density: number;
  /** The cheapest access that collects the scope's rows (to be sorted), when one was sized. */
  collected?: { access: Access; size: number };
  /** The access to find the scope's ids through, where reads of the whole scope should (worthIds). */
  idsThrough?: Access;
  /** The scope's ids, in a plan for reads of the whole scope that found them (aggregatePlan): its count and capped accesses are then `ids`. */
  ids?: readonly number[];
}

function listSizeStatement(db: AppDatabase) {
  return preparedOnce(db, "access.listSize", () =>
    db
      .select({ n: sql<number | null>`sum(${signupCounts.count})` })
      .from(signupCounts)
      .where(and(eq(signupCounts.waitlistId, sql.placeholder("waitlistId")), between(signupCounts.day, sql.placeholder("firstDay"), sql.placeholder("lastDay"))))
      .prepare(),
  );
}

function inputSizeStatement(db: AppDatabase) {
  return preparedOnce(db, "access.inputSize", () =>
    db
      .select({ n: sql<number | null>`sum(${signupInputCounts.count})` })
      .from(signupInputCounts)
      .where(and(eq(signupInputCounts.waitlistId, sql.placeholder("waitlistId")), eq(signupInputCounts.label, sql.placeholder("label")), eq(signupInputCounts.value, sql.placeholder("value"))))
      .prepare(),
  );
}

function statusSizeStatement(db: AppDatabase) {
  // In SQL: the statuses come as one JSON array, which Drizzle's builder has no form for.
  return preparedSql<{ n: number | null }>(
    db,
    "access.statusSize",
    (d) =>
      sql`SELECT sum(count) AS n FROM signup_counts WHERE waitlist_id = ${sql.placeholder("waitlistId")} AND day BETWEEN ${sql.placeholder("firstDay")} AND ${sql.placeholder("lastDay")} AND status ${d.inJson(sql.placeholder("statuses"))}`,
  );
}

// Within the waitlist only, other filters aside: a cheap upper bound, read up to the cap.
function searchSizeStatement(db: AppDatabase) {
  // In SQL: the trigram index is a virtual table outside the Drizzle schema, and CROSS JOIN fixes SQLite's join order.
  return preparedSql<{ n: number }>(
    db,
    "access.searchSize",
    (d) => sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${d.emailSearchFrom(sql.raw("signups"), sql.raw("signups.id"))}
        WHERE ${d.emailSearchMatch(sql.raw("signups.email"), sql.placeholder("trigrams"))} AND signups.waitlist_id = ${sql.placeholder("waitlistId")} AND ${containsText(d, sql.raw("signups.email"), "contains")} LIMIT ${sql.placeholder("cap")})${d.subqueryName("found")}`,
  );
}

/** How long a search found to match more than SEARCH_COUNT_CAP signups is taken to still do, whatever was written since. */
const OVER_CAP_KEPT_MS = 60_000;
const MAX_OVER_CAP_ENTRIES = 500;
const overCapSeen = new WeakMap<object, Map<string, number>>();

/**
 * How many of the waitlist's signups contain `text`, up to SEARCH_COUNT_CAP + 1. Past the cap the
 * answer is kept for OVER_CAP_KEPT_MS even as signups are written (and a plan made from it as long as
 * any plan, while nothing more is written): it is shown as a lower bound ("10,000+"), which erasures
 * meanwhile leave true but for the last few. Probing again after every write on a live list cost
 * 50–100 ms a view for a common text ("ana", "@acme.com" at 1M).
 */
async function searchSize(waitlistId: string, text: string, db: AppDatabase, now = Date.now()): Promise<number> {
  let seen = overCapSeen.get(connectionOf(db));
  if (!seen) overCapSeen.set(connectionOf(db), (seen = new Map()));
  const key = `${waitlistId}\n${text}`;
  const at = seen.get(key);
  if (at !== undefined && now - at >= 0 && now - at < OVER_CAP_KEPT_MS) return SEARCH_COUNT_CAP + 1;
  const size = (await searchSizeStatement(db).get({ waitlistId, trigrams: searchIndexPattern(text), contains: containsPattern(text), cap: SEARCH_COUNT_CAP + 1 }))!.n;
  seen.delete(key);
  if (size > SEARCH_COUNT_CAP) {
    seen.set(key, now);
    if (seen.size > MAX_OVER_CAP_ENTRIES) seen.delete(seen.keys().next().value!);
  }
  return size;
}

async function planFor(scope: SignupScope, db: AppDatabase): Promise<AccessPlan> {
  if (scope.email !== undefined) return { rows: "email", rowsAnyOrder: "email", count: "email", capped: "email", bound: 1, searchOverCap: false, rangeShare: 1, density: 1 };
  const firstDay = scope.createdSince ? Math.floor(scope.createdSince.getTime() / DAY_MS) : Number.MIN_SAFE_INTEGER;
  const lastDay = scope.createdUntil ? Math.floor((scope.createdUntil.getTime() - 1) / DAY_MS) : Number.MAX_SAFE_INTEGER;
  const walked = (await listSizeStatement(db).get({ waitlistId: scope.waitlistId, firstDay, lastDay }))?.n ?? 0;
  // An input's count is kept for the whole list only: within a date range, the range's share of it
  // (the input access reads just that range of signup_inputs' key).
  const ranged = scope.createdSince !== undefined || scope.createdUntil !== undefined;
  const listTotal = ranged ? ((await listSizeStatement(db).get({ waitlistId: scope.waitlistId, firstDay: Number.MIN_SAFE_INTEGER, lastDay: Number.MAX_SAFE_INTEGER }))?.n ?? 0) : walked;
  const rangeShare = listTotal > 0 ? walked / listTotal : 1;
  const candidates: { access: Access; size: number }[] = [{ access: "order", size: walked }];
  // The share of the list each sized filter keeps (status, inputs): a walk that stops at a cap reads
  // about cap ÷ their product rows, taken as independent (0: never walk for it).
  let density = 1;
  let searchOverCap = false;
  // The share of the walked signups each filter that was sized keeps, by filter (worthIds).
  const shares = new Map<string, number>();
  if (walked > SMALL_LIST) {
    if (scope.status !== undefined) {
      const size = (await statusSizeStatement(db).get({ waitlistId: scope.waitlistId, firstDay, lastDay, statuses: JSON.stringify(scope.status) }))?.n ?? 0;
      // Only signups that left `waiting` are in the status index (migration 0010): few, on most lists,
      // and the oldest (lists are drained oldest first), so a walk from the newest would find them last.
      if (scope.status.includes("waiting")) density *= size / walked;
      else {
        density = 0;
        candidates.push({ access: "status", size });
      }
    }
    for (const [index, input] of (scope.inputs ?? []).entries()) {
      const size = Math.ceil(((await inputSizeStatement(db).get({ waitlistId: scope.waitlistId, label: input.label, value: input.value }))?.n ?? 0) * rangeShare);
      shares.set(`input${index}`, Math.min(1, size / walked));
      density *= shares.get(`input${index}`)!;
      candidates.push({ access: `input${index}`, size });
    }
    const text = scope.emailContains;
    if (text !== undefined && canUseSearchIndex(text)) {
      const size = await searchSize(scope.waitlistId, text, db);
      // Past the cap the search's size is unknown: reading it may mean reading every match of a
      // common text in the whole list, so any access whose size is known wins.
      searchOverCap = size > SEARCH_COUNT_CAP;
      if (!searchOverCap) shares.set("emailContains", listTotal > 0 ? size / listTotal : 1);
      candidates.push({ access: "search", size: searchOverCap ? Number.POSITIVE_INFINITY : size });
    }
  }
  const cheapest = candidates.reduce((best, candidate) => (candidate.size < best.size ? candidate : best));
  const collected = candidates.filter((candidate) => candidate.access !== "order");
  const cheapestCollected = collected.reduce<{ access: Access; size: number } | undefined>((best, candidate) => (!best || candidate.size < best.size ? candidate : best), undefined);
  const rowsAnyOrder = walked > SMALL_LIST && cheapestCollected && cheapestCollected.size <= COLLECT_LIMIT ? cheapestCollected.access : "order";
  // The status index is kept in creation order within each status: SQLite reads a page from it at
  // once however many match (merging the statuses asked for), and never reads a waiting signup.
  const rows = rowsAnyOrder === "order" && candidates.some((candidate) => candidate.access === "status") ? "status" : rowsAnyOrder;
  // Collecting reads every row it collects before the first is counted. Walking the list newest first
  // (scope-sql's newestFirst) finds Engineers still waiting on a drained list of ten million after some
  // 60,000 rows, where collecting every Engineer read two million (1.8 s).
  const capped = density > 0 && FACET_ROW_CAP / density < cheapest.size ? "order" : cheapest.access;
  const idsThrough = worthIds(scope, cheapest, searchOverCap, shares) ? cheapest.access : undefined;
  return { rows, rowsAnyOrder, count: cheapest.access, capped, bound: cheapest.size, searchOverCap, rangeShare, density, collected: cheapestCollected, idsThrough };
}

/**
 * The most ids a plan keeps. A page of the dashboard reads its whole scope some six times (counts,
 * the last week, the chart, three facets, a facet without its own filter); when the scope's cheapest
 * access reads many rows to keep a few (a month of Engineers, among whom the verified referrals
 * whose address holds "ana": 678 of 80,000 on a 10M list), each read found them all again, about
 * 200 ms each on PostgreSQL. Found once per database version, the scope's own ids are looked up instead.
 * Pages of rows never look for them: a page stops at its first rows, where finding the ids reads them
 * all (a /v1 page of Engineers whose address holds a text went from 23–27 to 161–195 ms on SQLite 1M that way).
 */
const SCOPE_IDS_CAP = 10_000;
/** Reading this few rows costs each read less than finding the ids first would save. */
const FEW_READ = 1_000;
/**
 * Above this many rows read the ids are not looked for: a scope that turns out larger than
 * SCOPE_IDS_CAP wasted the read, and PostgreSQL collects an input's rows in full before it keeps the first.
 */
const MOST_READ_FOR_IDS = 200_000;

/**
 * Whether a plan should find the scope's ids: its cheapest access reads more than a few rows, not too
 * many, and the scope keeps fewer than it reads: a filter other than the access's own narrows it that
 * signup_counts does not keep (a custom input, a search, a source…; a scope of flags, status and
 * dates only is counted from signup_counts, and its pages stop at their first rows: SQLite's view of
 * a month's waiting or invited signups went from 57 to 79 ms reading 10,001 of them in vain). Not when
 * those filters were all sized and keep more than SCOPE_IDS_CAP by the estimate (taken as independent,
 * as the density is), nor when the only one is an email search already found to match more than
 * SEARCH_COUNT_CAP (searchSize says why that is not read again).
 */
function worthIds(scope: SignupScope, { access, size }: { access: Access; size: number }, searchOverCap: boolean, shares: Map<string, number>): boolean {
  if (size <= FEW_READ || size > MOST_READ_FOR_IDS) return false;
  const filters = [...setFilters(scope).filter(({ descriptor }) => !descriptor.aggregated).map(({ key }) => key), ...(scope.inputs ?? []).map((_, index) => `input${index}`)];
  const narrowing = filters.filter((filter) => filter !== (access === "search" ? "emailContains" : access));
  if (narrowing.length === 0 || (searchOverCap && filters.length === 1 && filters[0] === "emailContains")) return false;
  return !narrowing.every((filter) => shares.has(filter)) || narrowing.reduce((estimate, filter) => estimate * shares.get(filter)!, size) <= SCOPE_IDS_CAP;
}

function scopeIdsStatement(db: AppDatabase, shape: ScopeShape) {
  return preparedSql<{ id: number }>(db, `access.scopeIds:${shapeKey(shape)}`, (d) => sql`select ${signups.id} as id from ${signups} where ${scopeWhere(shape, d)} limit ${sql.placeholder("cap")}`);
}

/** The scope's ids read through `access` (the ids of a broader scope for `ids`), in no order; undefined past SCOPE_IDS_CAP. */
async function scopeIdsThrough(scope: SignupScope, access: Access, broader: readonly number[] | undefined, db: AppDatabase): Promise<number[] | undefined> {
  const rows = await scopeIdsStatement(db, shapeOf(scope, access)).all({ ...scopeParams(scope, broader), cap: SCOPE_IDS_CAP + 1 });
  return rows.length > SCOPE_IDS_CAP ? undefined : rows.map((row) => Number(row.id));
}

/**
 * The scope's ids, or undefined past SCOPE_IDS_CAP. A scope with verified, referral or status filters
 * takes them from the ids of the scope without those filters when that has some: its counts (their
 * facets') read that scope on the same page, so it is planned anyway.
 */
async function idsOf(scope: SignupScope, access: Access, db: AppDatabase): Promise<number[] | undefined> {
  const unflagged = withoutFlags(scope);
  if (scopeKey(unflagged) !== scopeKey(scope)) {
    const broader = (await aggregatePlan(unflagged, db)).ids;
    if (broader) return await scopeIdsThrough(scope, "ids", broader, db);
  }
  return await scopeIdsThrough(scope, access, undefined, db);
}

/** A scope's statement shape for one of its plan's accesses, and the values it binds. */
export interface PlannedScope {
  shape: ScopeShape;
  params: ScopeParams;
}

export function planned(scope: SignupScope, plan: AccessPlan, access: Access): PlannedScope {
  return { shape: shapeOf(scope, access), params: scopeParams(scope, access === "ids" ? plan.ids : undefined) };
}

/** The scope planned (by planAccess, or aggregatePlan for a read of all of it), read through the access `pick` takes from its plan. */
export async function planScope(scope: SignupScope, pick: (plan: AccessPlan) => Access, db: AppDatabase, planOf = planAccess): Promise<PlannedScope> {
  const plan = await planOf(scope, db);
  return planned(scope, plan, pick(plan));
}

/** The plan of a read of the whole scope (a count, a facet, the chart): with the scope's ids where the plan says to find them, once per database version. */
export async function aggregatePlan(scope: SignupScope, db: AppDatabase = getDb()): Promise<AccessPlan> {
  const plan = await planAccess(scope, db);
  const through = plan.idsThrough;
  if (!through) return plan;
  return await memoizeWhileUnchanged(db, `ids:${scopeKey(scope)}`, async () => {
    const ids = await idsOf(scope, through, db);
    return ids ? { ...plan, count: "ids", capped: "ids", bound: ids.length, ids } : plan;
  });
}

/**
 * A row collected (found by id, then sorted) costs about as much as this many rows walked in order. On PostgreSQL,
 * a page 10,000 rows into company=Acme (93,563 of a 1M list): 621 ms collected, 328 ms walking 107,000 rows.
 */
const COLLECTED_ROW_COST = 3;

/**
 * The access of a page that ends `reach` rows into the scope, walked in order as `access` says: the cheapest collecting
 * access instead when the walk would read more rows to get there (about reach ÷ density) than collecting costs.
 */
export function deepPageAccess(plan: AccessPlan, access: Access, reach: number): Access {
  const walkedRows = plan.density > 0 ? reach / plan.density : Number.POSITIVE_INFINITY;
  return access === "order" && plan.collected && walkedRows > plan.collected.size * COLLECTED_ROW_COST ? plan.collected.access : access;
}

/** How to read at most `cap` rows of the scope: `capped` is weighed for FACET_ROW_CAP and holds for any smaller cap. */
export function cappedAccess(plan: AccessPlan, cap: number): Access {
  return cap <= FACET_ROW_CAP ? plan.capped : plan.count;
}

/** How to read a scope, from the sizes its indexes and counts tables give; remembered while the database is unchanged. */
export async function planAccess(scope: SignupScope, db: AppDatabase = getDb()): Promise<AccessPlan> {
  return await memoizeWhileUnchanged(db, `plan:${scopeKey(scope)}`, async () => await planFor(scope, db));
}
