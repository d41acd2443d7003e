import "server-only";
import { z } from "zod";
import { FILTER_KEYS, hasInvertedRange, INPUT_PARAM_PREFIX, MAX_FILTER_TEXT, SIGNUP_FILTERS, splitInputParams, type FilterDescriptor, type InputMatch, type SignupFilter } from "@/lib/domain/signups/filter";
import { SIGNUP_SORTS, SORT_DIRECTIONS } from "@/lib/domain/sorting";
import { firstValues, type PageSearchParams } from "./search-params";
import { DASHBOARD_PAGE_SIZES, SIGNUP_TABLE_VIEW_DEFAULTS as DEFAULTS } from "./signup-table-defaults";
import { searchField } from "./waitlist-table";

// The signups table's state as it lives in the dashboard's URL: the filters under their /v1 names
// (read leniently from the same descriptors: a bad value means no filter), and the view (facet
// search, sort, page, size). Invalid values fall back to defaults.

/**
 * The signups table pages through the first MAX_PAGED_ROWS rows of any order and no further, as
 * search engines do: SQLite steps over every row before an OFFSET, so `?page=999999&sort=email&…`
 * would read the whole list. Others are reached by narrowing the filters or the search, reversing
 * the sort, or through the CSV export and the API, which return everything.
 */
export const MAX_PAGED_ROWS = 10_000;

/** The last page whose rows are within MAX_PAGED_ROWS (400, 200, 100 for the page sizes). */
export function lastReachablePage(size: number): number {
  return Math.ceil(MAX_PAGED_ROWS / size);
}

/** At most this many `input.<label>` filters are read from a dashboard URL (the number of facets shown). */
export const MAX_DASHBOARD_INPUT_FILTERS = 8;

const viewSchema = z.object({
  /** The facet whose values `facet_q` searches, by the /v1 parameter its values set: `input.<label>` or a source field (`utm_source`). */
  facet: z.string().min(1).max(INPUT_PARAM_PREFIX.length + MAX_FILTER_TEXT).optional().catch(undefined),
  facet_q: searchField,
  sort: z.enum(SIGNUP_SORTS).catch(DEFAULTS.sort),
  dir: z.enum(SORT_DIRECTIONS).catch(DEFAULTS.dir),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(DEFAULTS.page),
  size: z.coerce
    .number()
    .refine((size) => (DASHBOARD_PAGE_SIZES as readonly number[]).includes(size))
    .catch(DEFAULTS.size),
});

export type SignupTableParams = Omit<SignupFilter, "inputs"> & { inputs: InputMatch[] } & z.output<typeof viewSchema>;

/** A filter's value from the URL's text, or undefined when the text is not one. */
function lenientValue(descriptor: FilterDescriptor<unknown>, text: string | undefined): unknown {
  const prepared = text === undefined ? undefined : descriptor.lenient ? descriptor.lenient(text) : text;
  if (prepared === undefined) return undefined;
  const parsed = descriptor.parse(prepared);
  return parsed.ok ? parsed.value : undefined;
}

/** `input.<label>=<value>` pairs: valid ones only (empty labels dropped), at most MAX_DASHBOARD_INPUT_FILTERS. */
function lenientInputs(values: Record<string, string>): InputMatch[] {
  const { inputs } = splitInputParams(values, () => {});
  return inputs.filter((input) => input.label.length <= MAX_FILTER_TEXT && input.value.length <= MAX_FILTER_TEXT).slice(0, MAX_DASHBOARD_INPUT_FILTERS);
}

/** Leniently parses the dashboard's URL state (the first value of each parameter wins). */
export function parseSignupTableParams(searchParams: PageSearchParams): SignupTableParams {
  const values = Object.fromEntries(Object.entries(firstValues(searchParams)).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const filter: SignupFilter = Object.fromEntries(FILTER_KEYS.map((key) => [key, lenientValue(SIGNUP_FILTERS[key] as FilterDescriptor<unknown>, values[SIGNUP_FILTERS[key].name])]));
  // An end not after the start selects nothing by construction: it falls back to none, like any invalid value.
  if (hasInvertedRange(filter)) filter.createdUntil = undefined;
  return { ...filter, inputs: lenientInputs(values), ...viewSchema.parse(values) };
}
