import type { SignupTableParams } from "@/lib/domain/list-params";
import { dashboardFilter } from "@/lib/domain/signups/dashboard-scope";
import { filterToApiParams, filterToCliArgs, INPUT_PARAM_PREFIX, type InputMatch } from "@/lib/domain/signups/filter";

// Imported by client components too, so it must not import the query layer at run time.

/** What parseSignupTableParams({}) gives (a unit test keeps the two in step). */
export const DEFAULT_SIGNUP_TABLE: SignupTableParams = {
  verified: undefined,
  referral: undefined,
  q: undefined,
  from: undefined,
  to: undefined,
  inputs: [],
  facet: undefined,
  facet_q: undefined,
  sort: "created_at",
  dir: "desc",
  page: 1,
  size: 25,
};

/** The URL query of the filters alone (what the CSV export takes), in a fixed order. */
function filterSearch(state: SignupTableParams): URLSearchParams {
  const search = new URLSearchParams();
  if (state.verified !== undefined) search.set("verified", String(state.verified));
  if (state.referral !== undefined) search.set("referral", String(state.referral));
  if (state.q) search.set("q", state.q);
  if (state.from) search.set("from", state.from);
  if (state.to) search.set("to", state.to);
  for (const input of state.inputs) search.set(INPUT_PARAM_PREFIX + input.label, input.value);
  return search;
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

/** Whether a state selects fewer than all signups (sort, page and size aside). */
export function isFiltered(state: SignupTableParams): boolean {
  return filterSearch(state).size > 0;
}

/** The /v1 path that returns the signups every active filter (the search included) selects. */
export function signupApiPath(waitlistId: string, state: SignupTableParams): string {
  return withQuery(`/v1/waitlist/${waitlistId}/signup`, filterToApiParams(dashboardFilter(state)));
}

/** A word as a POSIX shell reads it back: bare when it is plainly safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The CLI command that exports the same signups as the dashboard's CSV. */
export function signupCliCommand(waitlistId: string, state: SignupTableParams): string {
  return ["npm", "run", "--silent", "cli", "--", "signups", "export", "--waitlist", waitlistId, ...filterToCliArgs(dashboardFilter(state))].map(shellWord).join(" ");
}

/** The CSV export of the complete filtered set (filters and search; sort and page do not apply). */
export function signupExportHref(waitlistId: string, state: SignupTableParams): string {
  return withQuery(`/waitlists/${waitlistId}/export`, filterSearch(state));
}
