import "server-only";
import { z } from "zod";
import { invalidParameter } from "@/lib/core/errors";
import { firstIssueOf } from "@/lib/core/zod-issue";
import { limitParam } from "./limit-param";
import { hasInvertedRange, INPUT_PARAM_PREFIX, MAX_INPUT_FILTERS, splitInputParams, type SignupFilter } from "./signups/filter";
import { MAX_EMAIL_LENGTH } from "./signups/email-address";
import { filterFromParams, signupFilterParamsShape } from "./signups/filter-params";
import { SIGNUP_FIELDS, type SignupField } from "./signups/response";
import { MAX_ACTION_LIMIT, type StatusAction } from "./signups/status";
import { API_SIGNUP_SORTS } from "./sorting";
import type { StatusSelection } from "./signups/transitions";

// The list parameters of /v1 (strict: bad input is a 400 that names the parameter), also read by the
// CLI. The dashboard reads its URL leniently from the same descriptors (lib/dashboard/signup-table.ts).

export const MAX_PAGE_LIMIT = 1000;

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
  limit: limitParam(MAX_PAGE_LIMIT, `must be an integer from 1 to ${MAX_PAGE_LIMIT}`).optional(),
  cursor: z.string().min(1, "must not be empty").max(512, "is too long").optional(),
};

/** GET /v1/waitlist */
export const waitlistListParamsSchema = z.strictObject(keysetFields);
/** GET /v1/waitlist/{id}/events: `after` is a cursor, as the feed's Link header gives it. */
export const eventFeedParamsSchema = z.strictObject({ limit: keysetFields.limit, after: keysetFields.cursor });
/** GET /v1/waitlist/{id}: no query parameters. */
export const noParamsSchema = z.strictObject({});
/** GET /v1/waitlist/{id}/signup, custom-input filters (`input.<label>`) aside: see parseSignupListQuery. */
export const signupListParamsSchema = z.strictObject({
  ...signupFilterParamsShape,
  fields: fieldsParam.optional(),
  sort: z.enum(API_SIGNUP_SORTS, { error: `must be one of ${API_SIGNUP_SORTS.join(", ")}` }).optional(),
  ...keysetFields,
});

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
  const issue = firstIssueOf(parsed.error);
  if (issue.unknownKey !== undefined) throw invalidParameter(issue.unknownKey, `Unknown query parameter "${issue.unknownKey}".`);
  const name = issue.key ?? "query";
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
  const sort = parsed.sort ?? "created_at";
  if (sort === "position" && filter.status !== undefined && filter.status.some((status) => status !== "waiting")) {
    throw invalidParameter("status", 'The query parameter "status" can only be "waiting" with sort=position: the line holds waiting signups only.');
  }
  return { filter, fields: parsed.fields, sort, keyset: { limit: parsed.limit, cursor: parsed.cursor } };
}

/** The most addresses one status action lists. */
export const MAX_ACTION_EMAILS = 1_000;

/** POST /v1/waitlist/{id}/signup/{action} with a filter: the list's filters and `limit`. */
const actionParamsSchema = z.strictObject({
  ...signupFilterParamsShape,
  limit: limitParam(MAX_ACTION_LIMIT, `must be an integer from 1 to ${MAX_ACTION_LIMIT}`).optional(),
});

/** POST /v1/waitlist/{id}/signup/{action} with a body: the addresses instead of a filter. */
export const actionBodySchema = z.strictObject({
  emails: z.array(z.string().trim().min(1).max(MAX_EMAIL_LENGTH)).min(1).max(MAX_ACTION_EMAILS),
});

/**
 * Whether a filtered status action must say how many signups (`limit`): every one but `complete`,
 * which without it takes the oldest MAX_ACTION_LIMIT.
 */
export function actionNeedsLimit(action: StatusAction): boolean {
  return action !== "complete";
}

/**
 * Which signups a /v1 status action names: a JSON body `{"emails": […]}` (then no query parameter),
 * or the list's filters with `limit` (required but for `complete`: the oldest first).
 */
export function parseActionRequest(action: StatusAction, waitlistId: string, searchParams: URLSearchParams, body: string): StatusSelection {
  const values = uniqueValues(searchParams);
  if (body.trim() !== "") {
    const first = Object.keys(values)[0];
    if (first !== undefined) throw invalidParameter(first, `The query parameter "${first}" cannot be combined with a body: name the signups either by a filter and "limit", or by "emails".`);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw invalidParameter("body", 'The body must be a JSON object: {"emails": ["…"]}.');
    }
    const parsed = actionBodySchema.safeParse(json);
    if (!parsed.success) {
      const issue = firstIssueOf(parsed.error);
      const name = issue.unknownKey ?? issue.where ?? "body";
      throw invalidParameter(name === "body" ? "body" : "emails", `The body's "${name}" ${issue.message} (expected {"emails": [up to ${MAX_ACTION_EMAILS} addresses]}).`);
    }
    return { waitlistId, emails: parsed.data.emails };
  }
  const { parsed, filter } = parseSignupFilterValues(values, actionParamsSchema);
  if (parsed.limit === undefined && actionNeedsLimit(action)) {
    throw invalidParameter("limit", `The query parameter "limit" is required: at most ${MAX_ACTION_LIMIT} signups per call, the oldest first (or send {"emails": […]}).`);
  }
  return { scope: { ...filter, waitlistId }, limit: parsed.limit ?? MAX_ACTION_LIMIT };
}

const filterQuerySchema = z.strictObject(signupFilterParamsShape);

/** A saved filter: /v1's filter parameters as one query string ("verified=true&input.Role=Engineer"), strictly parsed. */
export function parseFilterQuery(query: string): SignupFilter {
  return parseSignupFilterValues(uniqueValues(new URLSearchParams(query)), filterQuerySchema).filter;
}
