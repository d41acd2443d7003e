// Bounds of the dashboard's counting, in a module without database imports: client components show them.

/**
 * Facet values are counted over at most this many matching signups, so that a view costs the same on
 * a list of ten million: a filter that leaves more (role=Engineer on a large list) gets counts that
 * are lower bounds ("1,234+"), read from the first FACET_ROW_CAP matches, as a large email search's
 * total is. Filters on verified and referral alone are counted exactly from signup_input_counts.
 */
export const FACET_ROW_CAP = 10_000;
