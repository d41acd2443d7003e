import { z } from "zod";
import { invalidParameter } from "@/lib/core/errors";
import { hasInvertedRange, INPUT_PARAM_PREFIX, MAX_FILTER_TEXT, MAX_INPUT_FILTERS, parseInstant, splitInputParams, type InputMatch, type SignupFilter } from "./signups/filter";
import { booleanWord, filterFromParams, signupFilterParamsShape } from "./signups/filter-params";
import { SIGNUP_FIELDS, type SignupField } from "./signups/response";
import { SIGNUP_SORTS, SORT_DIRECTIONS, WAITLIST_SUMMARY_SORTS } from "./sorting";

// One definition of every list parameter, shared by /v1 (strict: bad input is a 400) and the
// dashboard (lenient: bad input falls back to the default).

export const MAX_PAGE_LIMIT = 1000;

/** The dashboard's search box: trimmed, empty means none, too long falls back to none. */
const searchField = z.string().trim().max(200).optional().catch(undefined).transform((q) => q || undefined);

const filterFields = {
  verified: booleanWord.optional(),
  referral: booleanWord.optional(),
};

/** `fields`: a comma-separated choice among SIGNUP_FIELDS, returned in that list's order. */
const fieldsParam = z.string().transform((text, context) => {
  const names = text.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !(SIGNUP_FIELDS as readonly string[]).includes(name));
  if (unknown !== undefined) {
    context.addIssue({ code: "custom", message: unknown === "" ? "must list field names separated by commas" : `names an unknown field "${unknown}" (known: ${SIGNUP_FIELDS.join(", ")})` });
    return z.NEVER;
  }
  return SIGNUP_FIELDS.filter((field) => names.includes(field)) as SignupField[];
});

const keysetFields = {
  limit: z
    .string()
    .regex(/^[0-9]{1,7}$/, `must be an integer from 1 to ${MAX_PAGE_LIMIT}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be an integer from 1 to ${MAX_PAGE_LIMIT}`).max(MAX_PAGE_LIMIT, `must be an integer from 1 to ${MAX_PAGE_LIMIT}`))
    .optional(),
  cursor: z.string().min(1, "must not be empty").max(512, "is too long").optional(),
};

/** GET /v1/waitlist */
export const waitlistListParamsSchema = z.strictObject(keysetFields);
/** GET /v1/waitlist/{id}: no query parameters. */
export const noParamsSchema = z.strictObject({});
/** GET /v1/waitlist/{id}/signup, custom-input filters (`input.<label>`) aside: see parseSignupListQuery. */
export const signupListParamsSchema = z.strictObject({ ...signupFilterParamsShape, fields: fieldsParam.optional(), ...keysetFields });

export const DASHBOARD_PAGE_SIZES = [25, 50, 100] as const;

/**
 * The signups table pages through the first MAX_PAGED_ROWS rows of any order and no further, as
 * search engines do: SQLite steps over every row before an OFFSET, so `?page=999999&sort=email&q=…`
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

// Dates from 1970 on, and a `to` whose next day still has a four-digit year.
const EARLIEST_DAY = Date.UTC(1970, 0, 1);
const LATEST_DAY = Date.UTC(9999, 11, 30);

/** A `from`/`to` day: `YYYY-MM-DD` that exists; anything else means none. */
const dayField = z
  .string()
  .refine((text) => {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseInstant(text) : undefined;
    return day !== undefined && day.getTime() >= EARLIEST_DAY && day.getTime() <= LATEST_DAY;
  })
  .optional()
  .catch(undefined);

const inputMatchField = z.object({ label: z.string().min(1).max(MAX_FILTER_TEXT), value: z.string().max(MAX_FILTER_TEXT) });

/** `input.<label>=<value>` pairs: valid ones only, one per label, at most MAX_DASHBOARD_INPUT_FILTERS. */
const inputsField = z
  .array(z.unknown())
  .catch([])
  .transform((candidates) => {
    const inputs: InputMatch[] = [];
    for (const candidate of candidates) {
      const input = inputMatchField.safeParse(candidate);
      if (input.success && !inputs.some((other) => other.label === input.data.label)) inputs.push(input.data);
    }
    return inputs.slice(0, MAX_DASHBOARD_INPUT_FILTERS);
  });

/** Moves the `input.<label>` parameters of a URL's values into one `inputs` array (empty labels are dropped). */
function gatherInputs(values: unknown): unknown {
  if (typeof values !== "object" || values === null) return values;
  const present = Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const { rest, inputs } = splitInputParams(present, () => {});
  return { ...rest, inputs };
}

/** The dashboard's signup table state, as it lives in the URL. Invalid values fall back to defaults. */
export const signupTableParamsSchema = z.preprocess(
  gatherInputs,
  z
    .object({
      verified: filterFields.verified.catch(undefined),
      referral: filterFields.referral.catch(undefined),
      q: searchField,
      /** The first day (UTC) of the signup date range. */
      from: dayField,
      /** The last day (UTC) of the signup date range, included. */
      to: dayField,
      inputs: inputsField,
      /** The custom-input label whose values `facet_q` searches. */
      facet: z.string().min(1).max(MAX_FILTER_TEXT).optional().catch(undefined),
      facet_q: searchField,
      sort: z.enum(SIGNUP_SORTS).catch("created_at"),
      dir: z.enum(SORT_DIRECTIONS).catch("desc"),
      page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
      size: z.coerce
        .number()
        .refine((size) => (DASHBOARD_PAGE_SIZES as readonly number[]).includes(size))
        .catch(DASHBOARD_PAGE_SIZES[0]),
    })
    // A `to` before `from` selects nothing by construction: it falls back to none, like any invalid value.
    .transform((state) => (state.from && state.to && state.to < state.from ? { ...state, to: undefined } : state)),
);
export type SignupTableParams = z.output<typeof signupTableParamsSchema>;

/**
 * Strictly parses a query string for /v1: an unknown or repeated parameter, or a bad value,
 * is an `invalid_parameter` error that names the parameter.
 */
export function parseApiQuery<Schema extends z.ZodType>(searchParams: URLSearchParams, schema: Schema): z.output<Schema> {
  return parseApiValues(uniqueValues(searchParams), schema);
}

function uniqueValues(searchParams: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of searchParams) {
    if (Object.hasOwn(values, name)) throw invalidParameter(name, `The query parameter "${name}" is given more than once.`);
    values[name] = value;
  }
  return values;
}

/** Strictly parses named values (a query string's, or the CLI's options under the same names). */
export function parseApiValues<Schema extends z.ZodType>(values: Record<string, string>, schema: Schema): z.output<Schema> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const name = issue.keys[0]!;
    throw invalidParameter(name, `Unknown query parameter "${name}".`);
  }
  const name = String(issue.path[0] ?? "query");
  throw invalidParameter(name, `The query parameter "${name}" ${issue.message}.`);
}

/** A filter from /v1 names (the query's or the CLI's): `input.<label>` pairs, then the strict schema, then the range check. */
export function parseSignupFilterValues<Schema extends z.ZodObject<typeof signupFilterParamsShape>>(values: Record<string, string>, schema: Schema) {
  const { rest, inputs } = splitInputParams(values, (name) => {
    throw invalidParameter(name, `The query parameter "${name}" needs a label after "${INPUT_PARAM_PREFIX}".`);
  });
  const excess = inputs[MAX_INPUT_FILTERS];
  if (excess) {
    const name = INPUT_PARAM_PREFIX + excess.label;
    throw invalidParameter(name, `The query parameter "${name}" is one too many: at most ${MAX_INPUT_FILTERS} "${INPUT_PARAM_PREFIX}<label>" parameters per request.`);
  }
  const parsed = parseApiValues(rest, schema);
  const filter: SignupFilter = filterFromParams(parsed, inputs);
  if (hasInvertedRange(filter)) throw invalidParameter("created_until", 'The query parameter "created_until" must be later than "created_since".');
  return { parsed, filter };
}

/** GET /v1/waitlist/{id}/signup: the filter, the fields, and the keyset parameters. */
export function parseSignupListQuery(searchParams: URLSearchParams) {
  const { parsed, filter } = parseSignupFilterValues(uniqueValues(searchParams), signupListParamsSchema);
  return { filter, fields: parsed.fields, keyset: { limit: parsed.limit, cursor: parsed.cursor } };
}

type PageSearchParams = Record<string, string | string[] | undefined>;

/** The first value of each parameter, as the dashboard reads its URL state. */
function firstValues(searchParams: PageSearchParams): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(searchParams).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
}

/** Leniently parses the dashboard's URL state (the first value of each parameter wins). */
export function parseSignupTableParams(searchParams: PageSearchParams): SignupTableParams {
  return signupTableParamsSchema.parse(firstValues(searchParams));
}

/** The dashboard's waitlists overview state, as it lives in the URL. Invalid values fall back to defaults. */
export const waitlistTableParamsSchema = z.object({
  q: searchField,
  sort: z.enum(WAITLIST_SUMMARY_SORTS).catch("name"),
  dir: z.enum(SORT_DIRECTIONS).catch("asc"),
});
export type WaitlistTableParams = z.infer<typeof waitlistTableParamsSchema>;

export function parseWaitlistTableParams(searchParams: PageSearchParams): WaitlistTableParams {
  return waitlistTableParamsSchema.parse(firstValues(searchParams));
}
