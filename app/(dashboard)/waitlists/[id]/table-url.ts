import type { SignupTableParams } from "@/lib/domain/list-params";

// Imported by client components too, so it must not import the query layer at run time.

/** What parseSignupTableParams({}) gives (a unit test keeps the two in step). */
export const DEFAULT_SIGNUP_TABLE: SignupTableParams = { q: undefined, sort: "created_at", dir: "desc", page: 1, size: 25 };

/** The URL query for a table state; only non-default values are written, in a fixed order. */
export function signupTableSearch(state: SignupTableParams): URLSearchParams {
  const search = new URLSearchParams();
  if (state.verified !== undefined) search.set("verified", String(state.verified));
  if (state.referral !== undefined) search.set("referral", String(state.referral));
  if (state.q) search.set("q", state.q);
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
 * at page 1, since the old page number means something else under new filters or sort.
 */
export function signupTableHref(waitlistId: string, state: SignupTableParams, change: Partial<SignupTableParams>): string {
  const next = { ...state, ...change };
  if (!("page" in change)) next.page = 1;
  return withQuery(`/waitlists/${waitlistId}`, signupTableSearch(next));
}

/** The /v1 path that returns the signups the verified/referral filters select (the API has no email search). */
export function signupApiPath(waitlistId: string, state: Pick<SignupTableParams, "verified" | "referral">): string {
  const search = new URLSearchParams();
  if (state.verified !== undefined) search.set("verified", String(state.verified));
  if (state.referral !== undefined) search.set("referral", String(state.referral));
  return withQuery(`/v1/waitlist/${waitlistId}/signup`, search);
}

/** The CSV export of the complete filtered set (filters and search; sort and page do not apply). */
export function signupExportHref(waitlistId: string, state: SignupTableParams): string {
  const search = new URLSearchParams();
  if (state.verified !== undefined) search.set("verified", String(state.verified));
  if (state.referral !== undefined) search.set("referral", String(state.referral));
  if (state.q) search.set("q", state.q);
  return withQuery(`/waitlists/${waitlistId}/export`, search);
}
