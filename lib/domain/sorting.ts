// The orders the lists can be sorted in. Free of database imports: the dashboard's client-side URL
// code and the parameter schemas (list-params.ts) read them; the queries map each to SQL.

export const SORT_DIRECTIONS = ["asc", "desc"] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** The signups table of a waitlist. `position`: the line (waiting signups only, lib/domain/ranking). */
export const SIGNUP_SORTS = ["created_at", "email", "position"] as const;
export type SignupSort = (typeof SIGNUP_SORTS)[number];

/** The orders of GET /v1/waitlist/{id}/signup: both keyset-paged. */
export const API_SIGNUP_SORTS = ["created_at", "position"] as const;

/** The waitlists overview. */
export const WAITLIST_SUMMARY_SORTS = ["name", "total", "verified", "referral", "newest"] as const;
export type WaitlistSummarySort = (typeof WAITLIST_SUMMARY_SORTS)[number];
