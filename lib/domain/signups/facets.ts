import { and, desc, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signupInputCounts, signupInputs, signups } from "@/db/schema";
import { containsPattern, containsText } from "@/lib/store/contains";
import { dialectOf } from "@/lib/store/dialect";
import { preparedOnce, preparedSql } from "@/lib/store/statements";
import { aggregatePlan, cappedAccess, planScope } from "./access";
import { exceedsRowCap, exceedsSearchCap } from "./counts";
import { FACET_ROW_CAP, FACET_TEXT_CHARS } from "./limits";
import { setFilters, type SignupScope } from "./filter";
import { inputSliceOf, newestOfSlice, newestOfSliceParams, statusedSliceOf } from "./input-slice";
import { newestFirst, scopeWhere, shapeKey, type ScopeShape } from "./scope-sql";

export interface FacetValue {
  value: string;
  count: number;
}

export interface InputFacet {
  label: string;
  /** The most common values under the other active filters, most common first. */
  values: FacetValue[];
  /** How many distinct values the label has in the whole waitlist. */
  distinct: number;
  /** False when more than the row cap match: the counts are then lower bounds (see FACET_ROW_CAP). */
  exact: boolean;
}

/** Counted values of some labels; `exact` false when they were counted over the first `rowCap` matching signups only. */
export interface FacetValues {
  values: FacetValue[];
  exact: boolean;
}

const placeholder = sql.placeholder;

function topLabelsStatement(db: AppDatabase) {
  return preparedOnce(db, "facets.topLabels", () =>
    db
      .select({ label: signupInputCounts.label, distinct: sql<number>`count(distinct ${signupInputCounts.value})` })
      .from(signupInputCounts)
      .where(and(eq(signupInputCounts.waitlistId, placeholder("waitlistId")), sql`length(${signupInputCounts.label}) <= ${FACET_TEXT_CHARS}`))
      .groupBy(signupInputCounts.label)
      .orderBy(desc(sql`sum(${signupInputCounts.count})`), signupInputCounts.label)
      .limit(placeholder("limit"))
      .prepare(),
  );
}

/** The labels most signups of a waitlist have, most common first, with their number of distinct values (short labels only: FACET_TEXT_CHARS). */
export async function topInputLabels(waitlistId: string, limit: number, db: AppDatabase = getDb()): Promise<{ label: string; distinct: number }[]> {
  return await topLabelsStatement(db).all({ waitlistId, limit });
}

/** Only verified/referral filters (tested row by row, kept in signup_inputs): signup_input_counts answers alone. */
function onlyFlags(scope: SignupScope): boolean {
  return setFilters(scope).every(({ descriptor }) => descriptor.inputSliced && descriptor.planner === "row") && (scope.inputs?.length ?? 0) === 0;
}

function countedValuesStatement(db: AppDatabase, flags: { verified: boolean; referral: boolean; contains: boolean }) {
  const key = `${flags.verified ? "v" : "-"}${flags.referral ? "r" : "-"}${flags.contains ? "c" : "-"}`;
  return preparedOnce(db, `facets.countedValues:${key}`, () => {
    const n = sql<number>`sum(${signupInputCounts.count})`;
    return db
      .select({ label: signupInputCounts.label, value: signupInputCounts.value, count: n })
      .from(signupInputCounts)
      .where(
        and(
          eq(signupInputCounts.waitlistId, placeholder("waitlistId")),
          sql`${signupInputCounts.label} ${dialectOf(db).inJson(placeholder("labels"))}`,
          flags.verified ? eq(signupInputCounts.verified, placeholder("verified")) : undefined,
          flags.referral ? eq(signupInputCounts.referral, placeholder("referral")) : undefined,
          flags.contains ? containsText(dialectOf(db), signupInputCounts.value, "valueContains") : undefined,
        ),
      )
      .groupBy(signupInputCounts.label, signupInputCounts.value)
      .having(sql`${n} > 0`)
      .prepare();
  });
}

/**
 * The scope's rows first, read once (a materialized CTE: reading them may mean walking a month of a
 * large list), then their pairs (CROSS JOIN keeps SQLite from turning the join around). One more
 * row, with a null label, tells how many signups were read, so that no second walk is needed to
 * tell whether the cap was reached.
 */
function rowValuesStatement(db: AppDatabase, shape: ScopeShape, contains: boolean) {
  return preparedSql<{ label: string | null; value: string | null; count: number }>(db, `facets.rowValues:${shapeKey(shape)}:${contains ? "c" : "-"}`, (d) => {
    const valueContains = contains ? sql` and ${containsText(d, sql.raw("pairs.value"), "valueContains")}` : sql``;
    return sql`with matched as materialized (select ${signups.id} as id from ${signups} where ${scopeWhere(shape, d)}${newestFirst(shape)} limit ${placeholder("rowCap")})
      select pairs.label, pairs.value, count(*) as count from matched ${d.crossJoin("lower")} ${signupInputs} as pairs on pairs.signup_id = matched.id
      where pairs.label ${d.inJson(placeholder("labels"))}${valueContains}
      group by 1, 2
      union all select null, null, count(*) from matched`;
  });
}

// The newest signups of a one-input slice (input-slice.ts), then their pairs; one more row, with a null label, tells how many were read.
function sliceValuesStatement(db: AppDatabase, scope: SignupScope, contains: boolean) {
  const key = `facets.sliceValues:${scope.verified !== undefined}:${scope.referral !== undefined}:${scope.status !== undefined}:${contains}`;
  // In SQL: it nests newestOfSlice (input-slice.ts) and reads the labels from one JSON array, which Drizzle's builder has no form for.
  return preparedSql<{ label: string | null; value: string | null; count: number }>(
    db,
    key,
    (d) => sql`WITH matched AS MATERIALIZED (${newestOfSlice(d, scope)})
       SELECT pairs.label, pairs.value, count(*) AS count FROM matched
       ${d.crossJoin()} signup_inputs AS pairs ON pairs.signup_id = matched.id
       WHERE pairs.label ${d.inJson(placeholder("labels"))}${contains ? sql` AND ${containsText(d, sql.raw("pairs.value"), "valueContains")}` : sql``}
       GROUP BY 1, 2
       UNION ALL SELECT NULL, NULL, count(*) FROM matched`,
  );
}

/** Value counts of some labels under a scope, from the cheapest source, over at most `rowCap` matching signups. */
async function valueCounts(scope: SignupScope, labels: string[], valueContains: string | undefined, rowCap: number, db: AppDatabase) {
  const shared = { labels: JSON.stringify(labels), valueContains: valueContains === undefined ? null : containsPattern(valueContains) };
  const contains = valueContains !== undefined;
  if (onlyFlags(scope)) {
    const statement = countedValuesStatement(db, { verified: scope.verified !== undefined, referral: scope.referral !== undefined, contains });
    return { rows: await statement.all({ waitlistId: scope.waitlistId, verified: scope.verified ? 1 : 0, referral: scope.referral ? 1 : 0, ...shared }), exact: true };
  }
  // SQLite reads LIMIT -1 as no limit.
  const limit = Number.isFinite(rowCap) ? rowCap : -1;
  const slice = inputSliceOf(scope) ?? statusedSliceOf(scope);
  const all = slice
    ? await sliceValuesStatement(db, scope, contains).all({ ...newestOfSliceParams(scope, slice, limit), ...shared })
    : await planScope(scope, (plan) => cappedAccess(plan, rowCap), db, aggregatePlan).then(({ shape, params }) => rowValuesStatement(db, shape, contains).all({ ...params, ...shared, rowCap: limit }));
  const read = all.find((row) => row.label === null)!.count;
  const rows = all.filter((row): row is { label: string; value: string; count: number } => row.label !== null);
  // Fewer than the cap were read: that is all of them. Exactly the cap: only a count can tell.
  const exact = read < rowCap || (read === rowCap && !await exceedsRowCap(scope, rowCap, db));
  return { rows, exact };
}

/** The scope without its own filter on `label`: a facet shows the other values one could pick instead. */
function withoutLabel(scope: SignupScope, label: string): SignupScope {
  const inputs = scope.inputs?.filter((input) => input.label !== label);
  return { ...scope, inputs: inputs && inputs.length > 0 ? inputs : undefined };
}

function topValues(rows: { label: string; value: string; count: number }[], label: string, limit: number): FacetValue[] {
  return rows
    .filter((row) => row.label === label && row.value.length <= FACET_TEXT_CHARS)
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .slice(0, limit)
    .map(({ value, count }) => ({ value, count }));
}

/**
 * Facets of the custom inputs: the `labels` most common labels of the waitlist, each with its
 * `values` most common values under the other active filters (lower bounds past `rowCap` matches).
 * Null when an email search matches more signups than its counts are given for (see SEARCH_COUNT_CAP).
 */
export async function inputFacets(scope: SignupScope, { labels = 8, values = 10, rowCap = FACET_ROW_CAP } = {}, db: AppDatabase = getDb()): Promise<InputFacet[] | null> {
  if (await exceedsSearchCap(scope, db)) return null;
  const top = await topInputLabels(scope.waitlistId, labels, db);
  const filtered = new Set((scope.inputs ?? []).map((input) => input.label));
  const free = top.filter((entry) => !filtered.has(entry.label)).map((entry) => entry.label);
  const shared = free.length > 0 ? await valueCounts(scope, free, undefined, rowCap, db) : { rows: [], exact: true };
  return Promise.all(
    top.map(async ({ label, distinct }) => {
      const counted = filtered.has(label) ? await valueCounts(withoutLabel(scope, label), [label], undefined, rowCap, db) : shared;
      return { label, distinct, values: topValues(counted.rows, label, values), exact: counted.exact };
    }),
  );
}

/** The values of one label that contain `text` (case-insensitive), with counts under the other active filters. */
export async function inputFacetValues(scope: SignupScope, label: string, text: string, limit: number, db: AppDatabase = getDb(), rowCap = FACET_ROW_CAP): Promise<FacetValues | null> {
  const others = withoutLabel(scope, label);
  if (await exceedsSearchCap(others, db)) return null;
  const counted = await valueCounts(others, [label], text, rowCap, db);
  return { values: topValues(counted.rows, label, limit), exact: counted.exact };
}
