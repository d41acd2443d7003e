import { parseInstant } from "@/lib/core/instant";
import { DAY_MS } from "@/lib/core/time";
import { FILTER_KEYS, filterToApiParams, INPUT_PARAM_PREFIX, filterToCliArgs, type InputMatch, type SignupFilter, type SignupScope } from "@/lib/domain/signups/filter";
import type { SignupTableParams } from "./signup-table";
import { SIGNUP_TABLE_VIEW_DEFAULTS } from "./signup-table-defaults";

// The URLs of the signups table's state. Imported by client components too, so it must not import
// the query layer or zod at run time.

/** What parseSignupTableParams({}) gives: no filter, the default view. */
export const DEFAULT_SIGNUP_TABLE: SignupTableParams = { inputs: [], facet: undefined, facet_q: undefined, ...SIGNUP_TABLE_VIEW_DEFAULTS };

/** The filters of a table state (sort and page aside). */
export function tableFilter(state: SignupTableParams): SignupFilter {
  const filter: SignupFilter = Object.fromEntries(FILTER_KEYS.filter((key) => state[key] !== undefined).map((key) => [key, state[key]]));
  return state.inputs.length > 0 ? { ...filter, inputs: state.inputs } : filter;
}

/** The scope of a waitlist page, its CSV export and the API box. Sorted by position: the line, waiting signups only. */
export function tableScope(waitlistId: string, state: SignupTableParams): SignupScope {
  const scope = { waitlistId, ...tableFilter(state) };
  return state.sort === "position" && scope.status?.includes("waiting") !== false ? { ...scope, status: ["waiting"] } : scope;
}

/** The URL query of the filters alone (what the CSV export takes): the /v1 parameters, in a fixed order. */
function filterSearch(state: SignupTableParams): URLSearchParams {
  return filterToApiParams(tableFilter(state));
}

/** The date range as the days of the From and To inputs (UTC, To included). */
export function dayRange(state: Pick<SignupTableParams, "createdSince" | "createdUntil">): { from?: string; to?: string } {
  const day = (instant: Date) => instant.toISOString().slice(0, 10);
  return {
    from: state.createdSince ? day(state.createdSince) : undefined,
    to: state.createdUntil ? day(new Date(state.createdUntil.getTime() - 1)) : undefined,
  };
}

/** The state change that sets the range to these days (UTC, `to` included: the range ends the next midnight). */
export function withDays(from: string | undefined, to: string | undefined): Pick<SignupTableParams, "createdSince" | "createdUntil"> {
  const until = to ? parseInstant(to) : undefined;
  return { createdSince: from ? parseInstant(from) : undefined, createdUntil: until ? new Date(until.getTime() + DAY_MS) : undefined };
}

/** The URL query for a table state; only non-default values are written, in a fixed order. */
export function signupTableSearch(state: SignupTableParams): URLSearchParams {
  const search = filterSearch(state);
  if (state.facet && state.facet_q) {
    search.set("facet", state.facet);
    search.set("facet_q", state.facet_q);
  }
  if (state.sort !== DEFAULT_SIGNUP_TABLE.sort) search.set("sort", state.sort);
  if (state.dir !== DEFAULT_SIGNUP_TABLE.dir) search.set("dir", state.dir);
  if (state.page !== DEFAULT_SIGNUP_TABLE.page) search.set("page", String(state.page));
  if (state.size !== DEFAULT_SIGNUP_TABLE.size) search.set("size", String(state.size));
  return search;
}

function withQuery(path: string, search: URLSearchParams): string {
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * The waitlist page with some state changed. Any change other than the page itself starts again
 * at page 1, since the old page number means something else under new filters or sort; a value
 * search of a facet is dropped by any change but its own.
 */
export function signupTableHref(waitlistId: string, state: SignupTableParams, change: Partial<SignupTableParams>): string {
  const next = { ...state, ...change };
  if (!("page" in change)) next.page = 1;
  if (!("facet_q" in change)) next.facet_q = undefined;
  return withQuery(`/waitlists/${waitlistId}`, signupTableSearch(next));
}

/** The inputs with `label` set to `value` (replacing its earlier value), or removed when `value` is undefined. */
export function withInput(inputs: readonly InputMatch[], label: string, value: string | undefined): InputMatch[] {
  const others = inputs.filter((input) => input.label !== label);
  return value === undefined ? others : [...others, { label, value }];
}

/** The name of a custom input's facet in the URL's `facet`: the /v1 parameter its values set (`input.company`), as a source field's is its own (`utm_source`). */
export function inputFacetName(label: string): string {
  return INPUT_PARAM_PREFIX + label;
}

/** Whether a state selects fewer than all signups (sort, page and size aside). */
export function isFiltered(state: SignupTableParams): boolean {
  return filterSearch(state).size > 0;
}

/** The /v1 path that returns the signups every active filter (the search included) selects: the same parameters. */
export function signupApiPath(waitlistId: string, state: SignupTableParams): string {
  const search = filterSearch(state);
  if (state.sort === "position") search.set("sort", "position");
  return withQuery(`/v1/waitlist/${waitlistId}/signup`, search);
}

/** A word as a POSIX shell reads it back: bare when it is plainly safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The CLI command that exports the same signups as the dashboard's CSV (`answersInColumns`: its "Answers in columns" export). */
export function signupCliCommand(waitlistId: string, state: SignupTableParams, answersInColumns = false): string {
  const sort = state.sort === "position" ? ["--sort", "position"] : [];
  const columns = answersInColumns ? ["--columns", "inputs"] : [];
  return ["npm", "run", "--silent", "cli", "--", "signups", "export", "--waitlist", waitlistId, ...filterToCliArgs(tableFilter(state)), ...sort, ...columns].map(shellWord).join(" ");
}

/** The export's query parameter `columns=inputs`: each answer's label a column of its own (lib/domain/signups/csv.ts). */
export const EXPORT_COLUMNS_PARAM = "columns";

/** The CSV export of the complete filtered set (filters and search; sort and page do not apply), with the answers in columns if asked. */
export function signupExportHref(waitlistId: string, state: SignupTableParams, answersInColumns = false): string {
  const search = filterSearch(state);
  if (answersInColumns) search.set(EXPORT_COLUMNS_PARAM, "inputs");
  return withQuery(`/waitlists/${waitlistId}/export`, search);
}
