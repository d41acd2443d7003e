// The signups table's view when its URL says nothing (no zod here: client components read it to
// leave defaults out of the URLs they write).

export const DASHBOARD_PAGE_SIZES = [25, 50, 100] as const;

export const SIGNUP_TABLE_VIEW_DEFAULTS = { sort: "created_at", dir: "desc", page: 1, size: DASHBOARD_PAGE_SIZES[0] } as const;
