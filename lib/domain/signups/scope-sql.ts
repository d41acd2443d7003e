import { and, eq, sql, type SQL } from "drizzle-orm";
import { signups } from "@/db/schema";
import { containsPattern, containsText } from "@/lib/store/contains";
import type { Dialect } from "@/lib/store/dialect";
import { descriptorOf, FILTER_KEYS, setFilters, type FilterKey, type SignupScope, type SqlKit } from "./filter";

// A scope as SQL over `signups`. Every statement is prepared once per shape (which filters are set,
// and how the rows are reached: the SQL depends on both), with the values bound to placeholders.

/**
 * How SQLite reaches a scope's rows:
 * - `order`: walks the list's indexes (in creation order when asked), testing each row; right when
 *   every filter is dense, since the first rows of a page are then found at once;
 * - `email`: one lookup in the unique (waitlist, lower(email)) index;
 * - `search`: the rows whose address holds the searched text, from the trigram index;
 * - `input0`, `input1`, …: the rows with that custom input, from signup_inputs;
 * - `status`: the rows in statuses other than `waiting`, from the partial index that holds only
 *   those, in creation order within each status.
 * - `ids`: the rows whose ids a plan found once (access.ts, idsOf), looked up by id; every
 *   filter is tested again on them, so a row changed since is read as it is now.
 * `search`, `input…` and `ids` collect every matching row first (then sort them), so they win when few
 * rows match; `status` does too in another order than creation's.
 */
export type Access = "order" | "email" | "search" | "status" | "ids" | `input${number}`;

export interface ScopeShape {
  /** The filters that are set, in the order of SIGNUP_FILTERS. */
  filters: readonly FilterKey[];
  inputs: number;
  access: Access;
}

/** Searched text shorter than this has no trigram: it is always found by walking the list. */
export const MIN_INDEXED_SEARCH = 3;

export function canUseSearchIndex(text: string): boolean {
  return text.length >= MIN_INDEXED_SEARCH;
}

/**
 * The pattern the email search index looks up for a searched text: a superset of the signups that hold
 * it (its % and _ are wildcards there), which the exact test (containsPattern) then narrows. An address's
 * part before the "@" alone when that part has a trigram: a domain's trigrams are in millions of rows
 * of a big list, and an index reads every trigram's rows (on PostgreSQL, the dashboard's view of one
 * whole gmail.com address among 10M took 2.7 s, and 0.15 s this way).
 */
export function searchIndexPattern(text: string): string {
  const at = text.indexOf("@");
  const localPart = at < 0 ? text : text.slice(0, at);
  return `%${canUseSearchIndex(localPart) ? localPart : text}%`;
}

export function shapeOf(scope: SignupScope, access: Access): ScopeShape {
  return { filters: FILTER_KEYS.filter((key) => scope[key] !== undefined), inputs: scope.inputs?.length ?? 0, access };
}

export function shapeKey(shape: ScopeShape): string {
  return `${FILTER_KEYS.map((key) => (shape.filters.includes(key) ? key : "-")).join(",")}${shape.inputs}:${shape.access}`;
}

const kitOf = (dialect: Dialect): SqlKit => ({ sql, signups, placeholder: (name) => sql`${sql.placeholder(name)}`, dialect, containsText: (column, name) => containsText(dialect, column, name) });

export type ScopeParams = Record<string, string | number | null>;

/** The values of a scope's placeholders (the driver's: 1/0 for booleans, epoch ms, LIKE patterns), and the ids of the `ids` access when given. */
export function scopeParams(scope: SignupScope, ids?: readonly number[]): ScopeParams {
  const params: ScopeParams = { waitlistId: scope.waitlistId };
  if (ids) params.ids = JSON.stringify(ids);
  for (const { descriptor, value } of setFilters(scope)) Object.assign(params, descriptor.bind(value, { containsPattern, searchIndexPattern }));
  (scope.inputs ?? []).forEach((input, index) => {
    params[`label${index}`] = input.label;
    params[`value${index}`] = input.value;
  });
  return params;
}

const placeholder = sql.placeholder;

// signup_inputs is keyed by (waitlist, label, value, created_at, signup id): with the signup's own
// created_at the test is one lookup in that key, made for each row walked (the dialect's testedPerRow).
function hasInput(index: number, dialect: Dialect): SQL {
  return sql`exists (select 1 from signup_inputs where signup_inputs.waitlist_id = ${signups.waitlistId} and signup_inputs.label = ${placeholder(`label${index}`)} and signup_inputs.value = ${placeholder(`value${index}`)} and signup_inputs.created_at = ${signups.createdAt} and signup_inputs.signup_id = ${signups.id}${dialect.testedPerRow()})`;
}

// A date range narrows the collected ids to that range of the key.
function inputRows(index: number, shape: ScopeShape): SQL {
  return sql`${signups.id} in (select signup_id from signup_inputs where waitlist_id = ${placeholder("waitlistId")} and label = ${placeholder(`label${index}`)} and value = ${placeholder(`value${index}`)}${
    shape.filters.includes("createdSince") ? sql` and created_at >= ${placeholder("since")}` : sql``
  }${shape.filters.includes("createdUntil") ? sql` and created_at < ${placeholder("until")}` : sql``})`;
}

const searchRows = (dialect: Dialect) => dialect.emailSearchHas(signups.id, signups.email, placeholder("containsTrigrams"));

/**
 * Up to `cap` rows of a scope with an email search, driven by the trigram index through a join, so
 * that reading stops at the cap (`id IN (…)` would first collect every candidate of the index).
 */
export function searchDrivenRows(shape: ScopeShape, dialect: Dialect): SQL {
  return sql`select 1 from ${dialect.emailSearchFrom(signups, signups.id, "lower")}
    where ${dialect.emailSearchMatch(signups.email, placeholder("containsTrigrams"), "lower")} and ${scopeWhere({ ...shape, access: "order" }, dialect)}
    limit ${placeholder("cap")}`;
}

// The partial index's own condition, written as it is: SQLite uses a partial index only when the
// query's WHERE holds that very term.
const notWaiting = sql`${signups.status} <> 'waiting'`;

/**
 * The WHERE clause of a shape. With the `search` and `input` accesses the waitlist test is written
 * `+waitlist_id` (the dialect's notIndexed), which keeps SQLite from walking the list's own index instead of the chosen one.
 */
export function scopeWhere(shape: ScopeShape, dialect: Dialect): SQL | undefined {
  const kit = kitOf(dialect);
  const collected = shape.access === "search" || shape.access === "ids" || shape.access.startsWith("input");
  const inputs = Array.from({ length: shape.inputs }, (_, index) => (shape.access === `input${index}` ? inputRows(index, shape) : hasInput(index, dialect)));
  return and(
    collected ? sql`${dialect.notIndexed(signups.waitlistId)} = ${placeholder("waitlistId")}` : eq(signups.waitlistId, placeholder("waitlistId")),
    ...(shape.access === "status" ? [notWaiting] : []),
    ...(shape.access === "ids" ? [sql`${signups.id} ${dialect.inJson(placeholder("ids"), "integer")}`] : []),
    // The search access adds the trigram index's candidates just before the search's own test.
    ...shape.filters.flatMap((key) => (key === "emailContains" && shape.access === "search" ? [searchRows(dialect), descriptorOf(key).where(kit)] : [descriptorOf(key).where(kit)])),
    ...inputs,
  );
}

/**
 * For a walk of the list (`order`) under a status filter that stops at a cap: newest first. Lists are
 * drained oldest first, so `waiting` matches at once among the newest signups, where walking from
 * the oldest would first pass every signup already let in (a million, on a drained list of ten).
 * Only then: without a status filter the walk in the index's own order is the cheaper one (a search
 * within a month's range counted to its cap in 8.5 ms that way, 29 ms newest first).
 */
export function newestFirst(shape: ScopeShape): SQL {
  return shape.access === "order" && shape.filters.includes("status") ? sql` order by ${signups.createdAt} desc, ${signups.id} desc` : sql``;
}
