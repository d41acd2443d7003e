// Bounds of the dashboard's counting, in a module without database imports: client components show them.

/**
 * Facet values are counted over at most this many matching signups, so that a view costs the same on
 * a list of ten million: a filter that leaves more (role=Engineer on a large list) gets counts that
 * are lower bounds ("1,234+"), read from the first FACET_ROW_CAP matches, as a large email search's
 * total is. Filters on verified and referral alone are counted exactly from signup_input_counts.
 */
export const FACET_ROW_CAP = 10_000;

/**
 * Facets list labels and values of at most this many characters: a facet is a short category
 * (company, role, country), and every value listed is a link that carries it in its URL, so a few
 * long free-text answers would make the list page heavy (tests/e2e/dashboard/huge-signup.spec.ts). Longer
 * ones are still filters, through the URL and /v1's `input.<label>`.
 */
export const FACET_TEXT_CHARS = 60;
