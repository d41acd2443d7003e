import "server-only";
import { z } from "zod";
import { ENV_DEFAULTS, parseDelay } from "@/lib/core/env";
import { ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import { andList, code, count, orList } from "@/lib/core/prose";
import { DAY_MS, HOUR_MS } from "@/lib/core/time";
import { IDEMPOTENCY_WINDOW_MS } from "@/lib/domain/idempotency";
import { ADMIN_ROLE, JOIN_ROLE, REDEEM_ROLE, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { invitationResponseSchema } from "@/lib/domain/invitations/response";
import { INVITE_PARAMETER } from "@/lib/domain/invitations/link";
import { scheduleResponseSchema } from "@/lib/domain/invitations/schedules/response";
import { actionBodySchema, actionNeedsLimit, MAX_ACTION_EMAILS, MAX_PAGE_LIMIT, signupListParamsSchema, waitlistListParamsSchema } from "@/lib/domain/list-params";
import { eventResponseSchema } from "@/lib/domain/deliveries/event-body";
import { alreadyOnListResponseSchema, joinBodySchema, joinedSignupResponseSchema } from "@/lib/domain/joining/request";
import { funnelStatsResponseSchema, statsParamsSchema } from "@/lib/domain/funnel/schemas";
import { DEFAULT_EVENT_PAGE } from "@/lib/domain/deliveries/feed";
import { MAX_ACTION_LIMIT, SIGNUP_STATUSES, STATUS_ACTION_NAMES, STATUS_ACTIONS, type StatusAction } from "@/lib/domain/signups/status";
import { FLAG_DECISIONS, type FlagDecision } from "@/lib/domain/fraud/reasons";
import type { CodeSample, HeaderObject, JsonSchema, OpenApiDocument, OperationObject, ParameterObject, ResponseObject } from "./openapi-types";
import { FILTER_KEYS, INPUT_PARAM_PREFIX, MAX_INPUT_FILTERS, SIGNUP_FILTERS } from "@/lib/domain/signups/filter";
import { SIGNUP_FIELDS, signupResponseSchema, signupWithFieldsSchema, signupWithStatusSchema } from "@/lib/domain/signups/response";
import { UUID_PATTERN } from "@/lib/domain/waitlists/id";
import { waitlistResponseSchema } from "@/lib/domain/waitlists/response";
import { ALLOWED_METHODS, ERROR_TITLES, PROBLEM_CONTENT_TYPE, problemType, READ_WRITE_ALLOWED_METHODS, WRITE_ALLOWED_METHODS } from "./problem";
import { CACHE_CONTROL } from "./headers";
import { MAX_IDEMPOTENCY_KEY } from "./idempotency-key";
import { MAX_JOIN_BODY_BYTES } from "./join-route";
import {
  cacheControlHeader,
  etagHeader,
  HTTP_DESCRIPTION,
  ifNoneMatchParameter,
  methodNotAllowedResponse,
  notModifiedResponse,
  optionsResponse,
  pageEtagHeader,
  redirectResponse,
  type CacheControl,
} from "./openapi-http";

// The OpenAPI 3.1 document of /v1, served at /v1/openapi.json and rendered at /docs/api. Tests
// validate real responses against it, so it is the contract, not a description of it. Parameters
// and resource schemas come from the zod schemas the handlers parse and respond with.

const ref = (schema: string): JsonSchema => ({ $ref: `#/components/schemas/${schema}` });

// Words quoted from their definitions: the roles, the idempotency window and key length, the defaults.
const IDEMPOTENCY_HOURS = `${IDEMPOTENCY_WINDOW_MS / HOUR_MS} hours`;
const IDEMPOTENCY_KEY_REFUSED = `the Idempotency-Key is empty or longer than ${MAX_IDEMPOTENCY_KEY} characters`;
const ACTION_NAMES = STATUS_ACTION_NAMES.join(", ");

const headers = {
  requestId: {
    description: "A unique id for this request (a UUID). It is also in every problem body as `request_id`; quote it when reporting a problem.",
    required: true,
    schema: { type: "string", format: "uuid" },
  },
  link: {
    description:
      'Only on a page (a request with `limit`) that has more items after it: `<URL>; rel="next"`, the absolute URL of the next page. It keeps every other query parameter of the request and replaces `cursor`. Absent on the last page and on complete (unpaged) lists.',
    schema: { type: "string", pattern: '^<https?://[^>]+>; rel="next"$' },
  },
  wwwAuthenticate: {
    description: 'Always `Bearer realm="waitlist"`.',
    required: true,
    schema: { type: "string", const: 'Bearer realm="waitlist"' },
  },
  rateLimitPolicy: {
    description:
      'The rate-limit policy that applied (draft-ietf-httpapi-ratelimit-headers): `"per-key";q=<requests>;w=60` for a request with a valid key, `"auth-failures";q=<failures>;w=60` for one without. Limits are counted per server process.',
    required: true,
    schema: { type: "string", pattern: '^"(per-key|auth-failures)";q=[0-9]+;w=[0-9]+$' },
  },
  rateLimit: {
    description: 'What is left of that policy: `"<policy>";r=<remaining>;t=<seconds until the window resets>`.',
    required: true,
    schema: { type: "string", pattern: '^"(per-key|auth-failures)";r=[0-9]+;t=[0-9]+$' },
  },
  retryAfter: {
    description: "Seconds to wait before the next request will be accepted (the end of the current window).",
    required: true,
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
} satisfies Record<string, HeaderObject>;

const baseHeaders = { "Request-Id": headers.requestId, "Cache-Control": cacheControlHeader(CACHE_CONTROL.never) };
/** On every response of an operation that needs a key (not on 405s and unknown paths, which are answered before). */
const limitHeaders = { "RateLimit-Policy": headers.rateLimitPolicy, RateLimit: headers.rateLimit };

function problemResponse(code: ErrorCode, description: string, extraHeaders: Record<string, HeaderObject> = {}): ResponseObject {
  return {
    description: `\`${code}\`: ${description}`,
    headers: { ...baseHeaders, ...extraHeaders },
    content: { [PROBLEM_CONTENT_TYPE]: { schema: ref("Problem") } },
  };
}

const problems = {
  invalid_parameter: (what: string) => problemResponse("invalid_parameter", `${what} The body's \`parameter\` names the offending parameter.`, limitHeaders),
  unauthenticated: problemResponse(
    "unauthenticated",
    "The API key is missing, malformed, unknown, revoked or expired. The body is the same in every case, so it tells nothing about which. It counts as a failed authentication of the client address (policy `auth-failures`).",
    { "WWW-Authenticate": headers.wwwAuthenticate, ...limitHeaders },
  ),
  forbidden: problemResponse("forbidden", `The API key is valid but does not carry the role ${code(VIEW_ROLE)}.`, limitHeaders),
  rate_limited: problemResponse(
    "rate_limited",
    "Too many requests: the key used up its requests of the current minute (policy `per-key`), or the client address had too many failed authentications in it (policy `auth-failures`; the key is then not even looked at). Wait `Retry-After` seconds.",
    { ...limitHeaders, "Retry-After": headers.retryAfter },
  ),
  not_found: (what: string, keyed = true) => problemResponse("not_found", what, keyed ? limitHeaders : {}),
  internal: problemResponse("internal", "An unexpected failure. The body never contains internals; the server logs the error under the request id."),
};

interface Success {
  /** A list that can be paged (Link). */
  paged: boolean;
  /** Needs a key (rate-limit headers). */
  keyed: boolean;
  cacheControl: CacheControl;
  etag: Record<string, HeaderObject>;
}

/** The 200 of an operation, and the other answers on its path: 304, and the 204, 308 and 405 of other requests. */
function successResponses(description: string, schema: JsonSchema, { paged, keyed, cacheControl, etag }: Success): Record<string, ResponseObject> {
  const cacheHeaders = { "Request-Id": headers.requestId, "Cache-Control": cacheControlHeader(cacheControl), ...(keyed && limitHeaders) };
  return {
    "200": { description, headers: { ...cacheHeaders, ...etag, ...(paged && { Link: headers.link }) }, content: { "application/json": { schema } } },
    "204": optionsResponse(headers.requestId, !keyed),
    "304": notModifiedResponse({ ...cacheHeaders, ETag: { ...Object.values(etag)[0]!, required: true } }),
    "308": redirectResponse(headers.requestId),
    "405": methodNotAllowedResponse((extra) => problemResponse("method_not_allowed", "The API is read-only.", extra)),
  };
}

const pathId: ParameterObject = {
  name: "id",
  in: "path",
  required: true,
  description: "The waitlist id: a UUID (matched case-insensitively; returned lowercase). Anything else is a 400 naming `id`.",
  schema: { type: "string", format: "uuid", pattern: UUID_PATTERN },
};

// Query parameters come from the same zod schemas the handlers parse with, so the document lists
// exactly the accepted parameters. A filter's description and wire form are its descriptor's
// (lib/domain/signups/filter.ts); the others' are written here.
const filterDocs = Object.fromEntries(FILTER_KEYS.map((key) => [SIGNUP_FILTERS[key].name, SIGNUP_FILTERS[key].openapi]));
/** What makes each filter's value a 400, in list order. */
const filterRefusals = FILTER_KEYS.map((key) => `${code(SIGNUP_FILTERS[key].name)} ${SIGNUP_FILTERS[key].openapi.invalid}`).join("; ");
type FilterName = (typeof SIGNUP_FILTERS)[keyof typeof SIGNUP_FILTERS]["name"];
const queryDescriptions: Record<Exclude<keyof typeof signupListParamsSchema.shape, FilterName>, string> = {
  fields:
    "The fields of each signup object, comma-separated (`fields=email,created_at,id`), among `email`, `verified`, `referral`, `custom_inputs`, `created_at` (ISO 8601 UTC with milliseconds) and `id` (an opaque string, stable for the life of the signup). They are returned in that order, whatever the order asked. Without `fields`, exactly the first four (the `Signup` schema); with it, the `SignupWithFields` schema. An unknown name is a 400 that names it. Paging is unaffected: a cursor continues with any `fields`.",
  sort: "`created_at` (the default): creation order, oldest first. `position`: the line, the waiting signups in their places (the waitlist's ranking rule: first come, first served unless referrals move people up), first in line first; only waiting signups are listed, so `status` may only be `waiting`. Both orders are keyset-paged with `limit` and the `Link` header, and stable across pages.",
  limit: `Return one page of at most this many items (an integer from 1 to ${MAX_PAGE_LIMIT}) instead of the whole list. The \`Link\` header leads to the next page.`,
  cursor: "Where the page starts: copied from the `Link` header of the previous page, never built by hand. It is opaque and bound to its list and filters: a cursor from another list or other filters, an altered one, or one sent without `limit` is a 400.",
};

// What a client writes where the zod schema only says "text" (the handler parses the text itself):
// limit is the integer it must spell, and fields is a list written comma-separated in one parameter
// (style form without explode, as generated clients serialize arrays).
const wireForms: Partial<Record<keyof typeof queryDescriptions, Pick<ParameterObject, "schema" | "style" | "explode">>> = {
  limit: { schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_LIMIT } },
  fields: { style: "form", explode: false, schema: { type: "array", items: { type: "string", enum: [...SIGNUP_FIELDS] }, minItems: 1, uniqueItems: true } },
};

function queryParameters(schema: typeof signupListParamsSchema | typeof waitlistListParamsSchema): ParameterObject[] {
  const properties = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }).properties as Record<string, JsonSchema>;
  return Object.keys(schema.shape).map((name) => {
    const filter = filterDocs[name];
    if (filter) return { name, in: "query", required: false, description: filter.description, schema: filter.schema as JsonSchema };
    return {
      name,
      in: "query",
      required: false,
      description: queryDescriptions[name as keyof typeof queryDescriptions],
      ...(wireForms[name as keyof typeof queryDescriptions] ?? { schema: properties[name]! }),
    };
  });
}

// `input.<label>=<value>` is a family of parameters whose names share a prefix; OpenAPI 3.1 names each
// parameter it describes. An object parameter with style form and explode true is serialized as one
// `property=value` pair per property, without the parameter's own name (OpenAPI 3.1, "Style Examples":
// `R=100&G=200`), so an object whose property names are the full parameter names describes exactly
// what goes on the wire, and generated clients type it as a string map.
const inputFilters: ParameterObject = {
  name: "inputs",
  in: "query",
  required: false,
  style: "form",
  explode: true,
  description: [
    `Custom-input filters, each its own query parameter \`${INPUT_PARAM_PREFIX}<label>=<value>\`: \`${INPUT_PARAM_PREFIX}company=Acme&${INPUT_PARAM_PREFIX}role=Engineer\` selects the signups that have both. A signup has the pair (label, value) when one of its \`custom_inputs\` objects is \`{"label": <label>, "value": <value>}\`, or, for any other object, has a top-level property named \`<label>\` with that value. The value is compared exactly (case-sensitive) as text: a string as itself, a number or boolean as its JSON text (\`${INPUT_PARAM_PREFIX}seats=3\`, \`${INPUT_PARAM_PREFIX}beta=true\`).`,
    `Any label is allowed, at most ${MAX_INPUT_FILTERS} per request. An empty label (\`${INPUT_PARAM_PREFIX}=x\`), the same label twice or an eleventh label is a 400 that names that parameter.`,
    `This entry is how OpenAPI describes such a family: one object parameter, \`style: form\` and \`explode: true\`, which is sent as one \`property=value\` pair per property without its own name. Its property names are the full parameter names: \`{"${INPUT_PARAM_PREFIX}company": "Acme"}\` is sent as \`${INPUT_PARAM_PREFIX}company=Acme\`, and \`inputs\` itself never appears in the URL. (openapi-fetch serializes objects as \`deepObject\` unless given \`querySerializer: { object: { style: "form", explode: true } }\`.)`,
  ].join("\n\n"),
  schema: {
    type: "object",
    propertyNames: { pattern: `^${INPUT_PARAM_PREFIX.replace(".", "\\.")}.+$` },
    additionalProperties: { type: "string" },
    maxProperties: MAX_INPUT_FILTERS,
    examples: [{ [`${INPUT_PARAM_PREFIX}company`]: "Acme", [`${INPUT_PARAM_PREFIX}role`]: "Engineer" }],
  },
};

/** A resource's JSON Schema, from the zod schema its responses are typed and built with (descriptions included). */
function responseSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" });
  return jsonSchema;
}

/** The shell variables every code sample uses. */
export function curlSetup(origin: string): string {
  return `export WAITLIST_URL="${origin}"\nexport API_KEY="<API_KEY>"  # a key with the role waitlist:view`;
}

function curl(label: string, source: string): CodeSample {
  return { lang: "bash", label, source };
}

function followLinks(firstUrl: string): string {
  return [
    `url="${firstUrl}"`,
    "page=0",
    'while [ -n "$url" ]; do',
    "  page=$((page + 1))",
    '  curl -sS --fail-with-body -D headers.txt -o "page-$page.json" \\',
    '    -H "Authorization: Bearer $API_KEY" "$url" || break',
    "  # the next page's URL is in the Link header; there is none on the last page",
    "  url=$(grep -i '^link:' headers.txt | sed -E 's/^[^<]*<([^>]*)>.*/\\1/' | tr -d '\\r')",
    "done",
    'echo "saved $page page(s)"',
  ].join("\n");
}

const errorsCommon = {
  "401": problems.unauthenticated,
  "403": problems.forbidden,
  "429": problems.rate_limited,
  "500": problems.internal,
};

const listWaitlists: OperationObject = {
  operationId: "listWaitlists",
  summary: "Get all waitlists",
  description:
    "Every waitlist, oldest first (creation order, ties broken by an internal id). Without `limit` the response is the complete array; with `limit` it is one page and the `Link` header leads to the next.",
  tags: ["Waitlists"],
  parameters: [...queryParameters(waitlistListParamsSchema), ifNoneMatchParameter],
  responses: {
    ...successResponses("The waitlists (all of them, or one page).", { type: "array", items: ref("Waitlist") }, { paged: true, keyed: true, cacheControl: CACHE_CONTROL.revalidatePrivate, etag: etagHeader }),
    "400": problems.invalid_parameter(`An unknown or repeated query parameter, a \`limit\` outside 1–${MAX_PAGE_LIMIT}, or a bad cursor.`),
    ...errorsCommon,
  },
  "x-codeSamples": [
    curl("All waitlists", 'curl -sS -H "Authorization: Bearer $API_KEY" "$WAITLIST_URL/v1/waitlist"'),
    curl("Page by page, following Link", followLinks("$WAITLIST_URL/v1/waitlist?limit=100")),
  ],
};

const getWaitlist: OperationObject = {
  operationId: "getWaitlist",
  summary: "Get one waitlist",
  description: "One waitlist by id. It takes no query parameters: any is a 400.",
  tags: ["Waitlists"],
  parameters: [pathId, ifNoneMatchParameter],
  responses: {
    ...successResponses("The waitlist.", ref("Waitlist"), { paged: false, keyed: true, cacheControl: CACHE_CONTROL.revalidatePrivate, etag: etagHeader }),
    "400": problems.invalid_parameter("The id is not a UUID, or a query parameter was given."),
    ...errorsCommon,
    "404": problems.not_found("No waitlist has this id."),
  },
  "x-codeSamples": [curl("One waitlist", 'export WAITLIST_ID="<waitlist id>"\ncurl -sS -H "X-API-Key: $API_KEY" "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID"')],
};

const listSignups: OperationObject = {
  operationId: "listSignups",
  summary: "Get all signups",
  description: [
    "The signups of one waitlist, oldest first (creation order, ties broken by an internal id). A waitlist without signups, or filters that select none, give `[]`.",
    `Filters select signups; every one given must hold (AND): ${andList([...FILTER_KEYS.map((key) => code(SIGNUP_FILTERS[key].name)), `custom inputs (\`${INPUT_PARAM_PREFIX}<label>=<value>\`, see \`inputs\`)`])}. \`fields\` chooses the fields of each object, for instance \`created_at\` and \`id\`, which the default four leave out. The response is always the rows themselves: this API counts nothing (the dashboard's counts of a large email search, shown as \"10,000+\", are not part of it).`,
    `Without \`limit\` the response is the complete array, streamed as it is read (keyset batches of 1,000 with back-pressure), so any size is served in constant server memory and a slow client never blocks writers. The response then has no Content-Length. A failure before the first bytes is a normal 500; if the server fails after the stream started, the connection is cut and the body is not valid JSON (the status was already 200): check that the array parses.`,
    "With `limit` the response is one page and the `Link` header leads to the next one. Walking all pages returns every signup exactly once, in the same order as the full list, even while new signups arrive (they appear at the end).",
  ].join("\n\n"),
  tags: ["Signups"],
  parameters: [pathId, ...queryParameters(signupListParamsSchema), inputFilters, ifNoneMatchParameter],
  responses: {
    ...successResponses(
      "The signups (all of them, or one page): `Signup` objects, or `SignupWithFields` objects when `fields` is given.",
      { type: "array", items: { anyOf: [ref("Signup"), ref("SignupWithFields")] } },
      { paged: true, keyed: true, cacheControl: CACHE_CONTROL.personalData, etag: pageEtagHeader },
    ),
    "204": optionsResponse(headers.requestId, false, READ_WRITE_ALLOWED_METHODS),
    "405": methodNotAllowedResponse((extra) => problemResponse("method_not_allowed", "This path answers `GET`, `HEAD` and `POST` (a join).", extra), READ_WRITE_ALLOWED_METHODS),
    "400": problems.invalid_parameter(
      `The id is not a UUID; a query parameter is unknown (e.g. \`verfied\`) or repeated; ${filterRefusals}; an \`${INPUT_PARAM_PREFIX}\` parameter has no label or is one more than ${MAX_INPUT_FILTERS}; \`fields\` names an unknown field; \`sort\` is not \`created_at\` or \`position\`, or \`sort=position\` comes with a \`status\` other than \`waiting\`; \`limit\` is outside 1–${MAX_PAGE_LIMIT}; or the cursor is bad or from another list or other filters.`,
    ),
    ...errorsCommon,
    "404": problems.not_found("No waitlist has this id."),
  },
  "x-codeSamples": [
    curl(
      "All signups, streamed to a file",
      'export WAITLIST_ID="<waitlist id>"\ncurl -sS --fail-with-body -H "Authorization: Bearer $API_KEY" \\\n  "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup" -o signups.json',
    ),
    curl("Only verified referrals", 'curl -sS -H "X-API-Key: $API_KEY" "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup?verified=true&referral=true"'),
    curl(
      "October's engineers at Acme, with their dates and ids",
      'curl -sS -H "X-API-Key: $API_KEY" \\\n  "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup?created_since=2026-10-01&created_until=2026-11-01&input.company=Acme&input.role=Engineer&fields=email,created_at,id"',
    ),
    curl("Is this address on the list?", 'curl -sS -H "X-API-Key: $API_KEY" "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup?email=jane@acme.com&fields=email,created_at,id"'),
    curl("Page by page, following Link", followLinks("$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup?verified=true&limit=1000")),
  ],
};

const listEvents: OperationObject = {
  operationId: "listEvents",
  summary: "Get a waitlist's events",
  description: [
    "The events of one waitlist, oldest first, a page at a time: each is the body a webhook carries (`type`, `timestamp`, `data`) with its `id`, the webhook's `webhook-id`, for clients that poll instead of receiving webhooks. Deduplicate on `id`: an event a client has seen by webhook has the same id here.",
    `The feed has no last page: every answer has a \`Link\` header (rel=\"next\") with an \`after\` cursor that continues after its last event, or, on an empty page, where it started. Follow it until a page is empty, then poll that same URL later. Each item is the event's id followed by the very bytes its webhooks carry: the body written with the event, the signup as of the event (an erased one, since its erasure, only its id). Events are kept ${parseDelay(ENV_DEFAULTS.DELIVERY_RETENTION)! / DAY_MS} days by default (\`DELIVERY_RETENTION\`).`,
  ].join("\n\n"),
  tags: ["Events"],
  parameters: [
    pathId,
    { name: "limit", in: "query", required: false, description: `The most events on the page, an integer from 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_EVENT_PAGE}).`, schema: { type: "integer", minimum: 1, maximum: MAX_PAGE_LIMIT } },
    {
      name: "after",
      in: "query",
      required: false,
      description: "Where the page starts: the cursor of the previous page's `Link` header, never built by hand. Without it, the page starts at the oldest event kept. A cursor of another waitlist's feed, an altered one, or one of another list is a 400.",
      schema: { type: "string", minLength: 1, maxLength: 512 },
    },
    ifNoneMatchParameter,
  ],
  responses: {
    ...successResponses("One page of events, oldest first (possibly empty).", { type: "array", items: ref("Event") }, { paged: true, keyed: true, cacheControl: CACHE_CONTROL.personalData, etag: pageEtagHeader }),
    "400": problems.invalid_parameter(`The id is not a UUID; a query parameter is unknown or repeated; \`limit\` is outside 1–${MAX_PAGE_LIMIT}; or \`after\` is not a cursor of this feed.`),
    ...errorsCommon,
    "404": problems.not_found("No waitlist has this id."),
  },
  "x-codeSamples": [
    curl("The first page", 'export WAITLIST_ID="<waitlist id>"\ncurl -sS -D headers.txt -H "Authorization: Bearer $API_KEY" "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/events?limit=100"'),
  ],
};

const idempotencyKeyParameter: ParameterObject = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    `Any text of 1–${MAX_IDEMPOTENCY_KEY} characters the client makes up for this request (a UUID, say). Sent again with the same request (same query and body) within ${IDEMPOTENCY_HOURS}, the first answer comes back unchanged, with \`Idempotent-Replayed: true\`, and nothing is changed again; with another request it is a 422 \`unprocessable\`. Keys are kept per API key. A request that failed stored nothing and may be retried with the same key.`,
  schema: { type: "string", minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY },
};

const actionFilterParameters = queryParameters(signupListParamsSchema).filter((parameter) => parameter.name !== "fields" && parameter.name !== "cursor" && parameter.name !== "limit");

/** The operation of POST /v1/waitlist/{id}/signup/{action} (lib/api/status-routes.ts). */
export function statusActionOperation(action: StatusAction): OperationObject {
  const { from, to, event } = STATUS_ACTIONS[action];
  const limitRequired = actionNeedsLimit(action);
  return {
    operationId: `${action}Signups`,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} signups (${from} → ${to})`,
    description: [
      `Changes the status of ${from} signups to \`${to}\`, and records it: one \`${event}\` event per signup and one audit row for the call, in the same transaction. Signups in another status are never changed.`,
      `Name the signups either by the filters of \`GET /waitlist/{id}/signup\` with \`limit\` (${limitRequired ? "required, " : ""}at most ${count(MAX_ACTION_LIMIT)}): the oldest \`limit\` ${from} signups the filters select; or by a JSON body \`{"emails": [...]}\` (at most ${count(MAX_ACTION_EMAILS)} addresses, compared in any case) and no query parameter: the listed addresses not ${from} or not on the waitlist are counted in \`skipped\`. When none of the listed addresses is on the waitlist the answer is a 404; when all of them are in another status, a 409 naming both states.`,
      action === "complete"
        ? `Needs a key with the role ${code(ADMIN_ROLE)}, or ${code(REDEEM_ROLE)} (a product's key) naming the signups by \`emails\` only (with filters it is a 403); ${code(VIEW_ROLE)} is a 403. A browser page on another origin is refused (403) unless \`CORS_ORIGINS\` lets it in.`
        : `Needs a key with the role ${code(ADMIN_ROLE)} (${code(VIEW_ROLE)} is a 403). A browser page on another origin is refused (403) unless \`CORS_ORIGINS\` lets it in.`,
    ].join("\n\n"),
    tags: ["Signups"],
    parameters: [
      pathId,
      ...actionFilterParameters,
      { name: "limit", in: "query", required: false, description: `How many signups at most, the oldest first: an integer from 1 to ${MAX_ACTION_LIMIT}.${limitRequired ? " Required unless the body lists `emails`." : ` Default ${MAX_ACTION_LIMIT}.`}`, schema: { type: "integer", minimum: 1, maximum: MAX_ACTION_LIMIT } },
      inputFilters,
      idempotencyKeyParameter,
    ],
    requestBody: {
      required: false,
      description: "Instead of filters: the addresses of the signups.",
      content: { "application/json": { schema: responseSchema(actionBodySchema) } },
    },
    responses: {
      "200": {
        description: "What changed: how many signups, how many listed addresses were skipped, and the changed signups (the specification's four fields and the new status), oldest first.",
        headers: {
          "Request-Id": headers.requestId,
          "Cache-Control": cacheControlHeader(CACHE_CONTROL.personalData),
          ...limitHeaders,
          "Idempotent-Replayed": { description: "`true` on an answer repeated for an Idempotency-Key (nothing was changed again).", schema: { type: "string", const: "true" } },
        },
        content: { "application/json": { schema: ref("StatusActionResult") } },
      },
      "204": optionsResponse(headers.requestId, false, WRITE_ALLOWED_METHODS),
      "308": redirectResponse(headers.requestId),
      "405": methodNotAllowedResponse((extra) => problemResponse("method_not_allowed", "Only `POST` (and `OPTIONS`) on this path.", extra), WRITE_ALLOWED_METHODS),
      "400": problems.invalid_parameter(
        `The id is not a UUID; a filter is bad (as for \`GET /waitlist/{id}/signup\`); \`limit\` is missing${limitRequired ? "" : ` (never for ${action})`} or outside 1–${MAX_ACTION_LIMIT}; the body is not \`{"emails": [...]}\` with 1–${MAX_ACTION_EMAILS} addresses; the body comes with query parameters; or ${IDEMPOTENCY_KEY_REFUSED}.`,
      ),
      "401": problems.unauthenticated,
      "403": problemResponse(
        "forbidden",
        action === "complete"
          ? `The API key carries neither ${code(ADMIN_ROLE)} nor ${code(REDEEM_ROLE)}, a ${code(REDEEM_ROLE)} key named the signups by filters instead of \`emails\`, or a browser page on another origin sent the request.`
          : `The API key does not carry the role ${code(ADMIN_ROLE)}, or a browser page on another origin sent the request.`,
        limitHeaders,
      ),
      "404": problems.not_found("No waitlist has this id, or none of the listed addresses is on it."),
      "409": problemResponse("conflict", `Every listed address is in a status this action does not apply to (only ${from} signups can become ${to}); the detail names both states.`, limitHeaders),
      "422": problemResponse("unprocessable", `The Idempotency-Key was used in the last ${IDEMPOTENCY_HOURS} for another request.`, limitHeaders),
      "429": problems.rate_limited,
      "500": problems.internal,
    },
    "x-codeSamples": [
      curl(
        `The next 100 ${from} signups`,
        `curl -sS -X POST -H "Authorization: Bearer $ADMIN_KEY" -H "Idempotency-Key: $(uuidgen)" \\\n  "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup/${action}?verified=true&limit=100"`,
      ),
      curl(
        "By address",
        `curl -sS -X POST -H "Authorization: Bearer $ADMIN_KEY" -H "Content-Type: application/json" \\\n  -d '{"emails": ["jane@acme.com"]}' "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup/${action}"`,
      ),
    ],
  };
}

/** The operation of POST /v1/waitlist/{id}/signup/review/{decision} (lib/api/review-routes.ts). */
export function reviewDecisionOperation(decision: FlagDecision): OperationObject {
  const { stored, event } = FLAG_DECISIONS[decision];
  return {
    operationId: `${decision}FlaggedSignups`,
    summary: `${decision[0]!.toUpperCase()}${decision.slice(1)} flagged signups`,
    description: [
      `Decides the review of flagged signups (the \`flag\` filter of \`GET /waitlist/{id}/signup\` lists the ones waiting): every flag still waiting on each listed signup becomes \`${stored}\`, ${decision === "approve" ? "and its referral, if any, counts for its referrer from now on" : "and its referral, if any, never counts"}. One \`${event}\` event per signup and one audit row, in the same transaction.`,
      `Name the signups by a JSON body \`{"emails": [...]}\` (at most ${count(MAX_ACTION_EMAILS)} addresses, compared in any case); no query parameter. Listed addresses with no flag waiting, or not on the waitlist, are counted in \`skipped\`. When none is on the waitlist the answer is a 404; when none has a flag waiting, a 409.`,
      `Needs a key with the role ${code(ADMIN_ROLE)} (${code(VIEW_ROLE)} is a 403). A browser page on another origin is refused (403) unless \`CORS_ORIGINS\` lets it in.`,
    ].join("\n\n"),
    tags: ["Signups"],
    parameters: [pathId],
    requestBody: { required: true, description: "The addresses of the signups.", content: { "application/json": { schema: responseSchema(actionBodySchema) } } },
    responses: {
      "200": {
        description: "How many signups were decided, how many listed addresses were skipped, and the decided signups' ids, oldest first.",
        headers: { "Request-Id": headers.requestId, "Cache-Control": cacheControlHeader(CACHE_CONTROL.personalData), ...limitHeaders },
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["decided", "skipped", "ids"],
              properties: { decided: { type: "integer", minimum: 1 }, skipped: { type: "integer", minimum: 0 }, ids: { type: "array", items: { type: "string" } } },
              additionalProperties: false,
            },
          },
        },
      },
      "204": optionsResponse(headers.requestId, false, WRITE_ALLOWED_METHODS),
      "308": redirectResponse(headers.requestId),
      "405": methodNotAllowedResponse((extra) => problemResponse("method_not_allowed", "Only `POST` (and `OPTIONS`) on this path.", extra), WRITE_ALLOWED_METHODS),
      "400": problems.invalid_parameter(`The id is not a UUID; a query parameter is given; or the body is not \`{"emails": [...]}\` with 1–${MAX_ACTION_EMAILS} addresses.`),
      "401": problems.unauthenticated,
      "403": problemResponse("forbidden", `The API key does not carry the role ${code(ADMIN_ROLE)}, or a browser page on another origin sent the request.`, limitHeaders),
      "404": problems.not_found("No waitlist has this id, or none of the listed addresses is on it."),
      "409": problemResponse("conflict", "None of the listed signups has a flag waiting for review.", limitHeaders),
      "429": problems.rate_limited,
      "500": problems.internal,
    },
    "x-codeSamples": [
      curl("By address", `curl -sS -X POST -H "Authorization: Bearer $ADMIN_KEY" -H "Content-Type: application/json" \\\n  -d '{"emails": ["jane@acme.com"]}' "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup/review/${decision}"`),
    ],
  };
}

/** The operation of POST /v1/waitlist/{id}/signup (lib/api/join-route.ts). */
const joinWaitlist: OperationObject = {
  operationId: "joinWaitlist",
  summary: "Join a waitlist",
  description: [
    "Puts a person on the waitlist, as its hosted join page `/join/{id}` does, for a product's own backend. The list must be open for joining (`npm run cli -- waitlists update <id> --joining open`, or the dashboard). A new signup (201) is `waiting`, not verified, with a referral code; `signup.created` is recorded in the same transaction. An address already on the list (any case) is a 200 that changes nothing and carries nothing stored about that person: only `already_on_list` and `email_sent` (whether this server emailed the address a link to its own page).",
    "**What a backend may show.** Whoever types an address is not necessarily its owner: a backend must not relay more than this answer. For an address already on the list that is \"it is on the list\" (and, with `email_sent`, \"check your inbox\"); the place and referral link of a 201 belong to whoever just joined.",
    "`custom_inputs` answers the join form (labels in any case, every required field, a choice one of its options); `referral_code` (from a referral link) records who referred, an unknown code is ignored.",
    "A disposable address is a 422 on a list set to refuse them; by default it joins and is flagged for review (the `flag` filter), its referral held until approved.",
    `Needs ${code(JOIN_ROLE)} (which can do nothing else) or ${code(ADMIN_ROLE)}. Limited per address and waitlist (\`JOINS_PER_ADDRESS_PER_HOUR\`), per client address (\`JOINS_PER_CLIENT_PER_HOUR\`: a backend relaying its users' joins is one client) and per waitlist (\`JOINS_PER_WAITLIST_PER_MINUTE\`), the join page's joins included, across workers and restarts: a 429 with \`Retry-After\`. Send an \`Idempotency-Key\` to make a retry safe.`,
  ].join("\n\n"),
  tags: ["Signups"],
  parameters: [pathId, idempotencyKeyParameter],
  requestBody: { required: true, description: "Who joins, and their answers to the form.", content: { "application/json": { schema: responseSchema(joinBodySchema) } } },
  responses: {
    "201": {
      description: "Joined: the new signup.",
      headers: { "Request-Id": headers.requestId, "Cache-Control": cacheControlHeader(CACHE_CONTROL.personalData), ...limitHeaders },
      content: { "application/json": { schema: ref("JoinedSignup") } },
    },
    "200": {
      description: "The address (in any case) was already on the list: nothing stored about it is answered, and nothing changed. An answer repeated for an Idempotency-Key (with `Idempotent-Replayed: true`) has the first answer's status and body: a 201 stays a 201.",
      headers: {
        "Request-Id": headers.requestId,
        "Cache-Control": cacheControlHeader(CACHE_CONTROL.personalData),
        ...limitHeaders,
        "Idempotent-Replayed": { description: "`true` on an answer repeated for an Idempotency-Key.", schema: { type: "string", const: "true" } },
      },
      content: { "application/json": { schema: ref("AlreadyOnList") } },
    },
    "204": optionsResponse(headers.requestId, false, READ_WRITE_ALLOWED_METHODS),
    "308": redirectResponse(headers.requestId),
    "405": methodNotAllowedResponse((extra) => problemResponse("method_not_allowed", "This path answers `GET`, `HEAD` and `POST`.", extra), READ_WRITE_ALLOWED_METHODS),
    "400": problems.invalid_parameter(
      `The id is not a UUID; the body is not JSON, is larger than ${MAX_JOIN_BODY_BYTES / 1024} KB, has an unknown field or a field of the wrong type (\`parameter\` names it); \`email\` is not an address (\`parameter\`: \`email\`); \`custom_inputs\` does not match the form: an unknown label, a missing required field, a choice not among its options, a field twice (\`parameter\`: \`custom_inputs\`); or ${IDEMPOTENCY_KEY_REFUSED}.`,
    ),
    "401": problems.unauthenticated,
    "403": problemResponse("forbidden", `The API key carries neither ${code(JOIN_ROLE)} nor ${code(ADMIN_ROLE)}, or a browser page on another origin sent the request.`, limitHeaders),
    "404": problems.not_found("No waitlist has this id."),
    "409": problemResponse("conflict", "The waitlist is closed for joining.", limitHeaders),
    "422": problemResponse("unprocessable", `The waitlist refuses addresses of disposable email services and \`email\` is one (\`parameter\`: \`email\`; nothing is stored); or the Idempotency-Key was used in the last ${IDEMPOTENCY_HOURS} for another request.`, limitHeaders),
    "429": problemResponse("rate_limited", "Too many requests for the key (policy `per-key`), or too many joins for this address, from this client address or for this waitlist. Wait `Retry-After` seconds.", { ...limitHeaders, "Retry-After": headers.retryAfter }),
    "500": problems.internal,
  },
  "x-codeSamples": [
    curl(
      "Join",
      `curl -sS -X POST -H "Authorization: Bearer $JOIN_KEY" -H "Content-Type: application/json" -H "Idempotency-Key: $(uuidgen)" \\\n  -d '{"email": "jane@acme.com", "custom_inputs": [{"label": "Company", "value": "Acme"}], "referral_code": "k3x9p2m7qa"}' \\\n  "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/signup"`,
    ),
  ],
};

const pathToken: ParameterObject = {
  name: "token",
  in: "path",
  required: true,
  description: `The invite token: the \`${INVITE_PARAMETER}\` query parameter of the link in the invitation email (\`{{invite.url}}\`), as it came. Not a token's shape (two base64url parts joined by a dot) is a 400 naming \`token\`.`,
  schema: { type: "string", minLength: 1, maxLength: 400 },
};

const invitationRefusals = {
  "400": problems.invalid_parameter("The token is not an invite token's shape, or a query parameter was given."),
  "401": problems.unauthenticated,
  "403": problemResponse("forbidden", `The API key carries neither ${code(REDEEM_ROLE)} nor ${code(ADMIN_ROLE)}.`, limitHeaders),
  "404": problems.not_found("No invitation has this token: it was altered or made up, or its signup was erased."),
  "409": problemResponse("conflict", "The invitation expired, or it was withdrawn or replaced by a newer invitation of the same signup (the detail says which); nothing changed.", limitHeaders),
  "429": problems.rate_limited,
  "500": problems.internal,
};

const INVITATION_TOKENS =
  "Invite tokens are stored nowhere: each is signed by this server and bound to the time of its invitation, so inviting the signup again retires the old token, and erasing the signup leaves it naming no one. A token is good for the waitlist's invite expiry (14 days unless set) from the invitation.";

const getInvitation: OperationObject = {
  operationId: "getInvitation",
  summary: "Look at an invitation",
  description: [
    "What an invite token stands for, before the product's sign-up uses it: `state` `valid` (the signup is invited by it) or `redeemed` (already completed by it), the signup (address, answers, status), its waitlist and when the token expires. An expired, withdrawn or replaced invitation is a 409, an unknown or altered token a 404.",
    INVITATION_TOKENS,
    `Needs ${code(REDEEM_ROLE)} (which can do nothing else but redeem and complete by address) or ${code(ADMIN_ROLE)}.`,
  ].join("\n\n"),
  tags: ["Invitations"],
  parameters: [pathToken, ifNoneMatchParameter],
  responses: {
    ...successResponses("The invitation.", ref("Invitation"), { paged: false, keyed: true, cacheControl: CACHE_CONTROL.personalData, etag: etagHeader }),
    ...invitationRefusals,
  },
  "x-codeSamples": [curl("Look at a token", 'export INVITE_TOKEN="<the invite parameter of the link>"\ncurl -sS -H "Authorization: Bearer $REDEEM_KEY" "$WAITLIST_URL/v1/invitations/$INVITE_TOKEN"')],
};

const redeemInvitation: OperationObject = {
  operationId: "redeemInvitation",
  summary: "Redeem an invitation",
  description: [
    "The product's sign-up accepted the invited person: the signup becomes `completed`, with one `signup.completed` event (webhooks, the event feed) and one audit row, in one transaction. Redeeming again answers the same 200 (`state` `redeemed`) and changes nothing, so a retry is safe. An expired, withdrawn or replaced invitation is a 409, an unknown or altered token a 404: nothing changes.",
    INVITATION_TOKENS,
    `Needs ${code(REDEEM_ROLE)} or ${code(ADMIN_ROLE)}. A browser page on another origin is refused (403) unless \`CORS_ORIGINS\` lets it in.`,
  ].join("\n\n"),
  tags: ["Invitations"],
  parameters: [pathToken],
  responses: {
    "200": {
      description: "The invitation, redeemed (the first time or again).",
      headers: { "Request-Id": headers.requestId, "Cache-Control": cacheControlHeader(CACHE_CONTROL.personalData), ...limitHeaders },
      content: { "application/json": { schema: ref("Invitation") } },
    },
    "204": optionsResponse(headers.requestId, false, WRITE_ALLOWED_METHODS),
    "308": redirectResponse(headers.requestId),
    "405": methodNotAllowedResponse((extra) => problemResponse("method_not_allowed", "Only `POST` (and `OPTIONS`) on this path.", extra), WRITE_ALLOWED_METHODS),
    ...invitationRefusals,
    "403": problemResponse("forbidden", `The API key carries neither ${code(REDEEM_ROLE)} nor ${code(ADMIN_ROLE)}, or a browser page on another origin sent the request.`, limitHeaders),
  },
  "x-codeSamples": [curl("Redeem a token", 'curl -sS -X POST -H "Authorization: Bearer $REDEEM_KEY" "$WAITLIST_URL/v1/invitations/$INVITE_TOKEN/redeem"')],
};

const getOpenApi: OperationObject = {
  operationId: "getOpenApiDocument",
  summary: "This document",
  description: "The OpenAPI 3.1 document of this API. No API key needed, readable from any origin (CORS), not rate-limited. It takes no query parameters: any is a 400.",
  tags: ["Meta"],
  parameters: [ifNoneMatchParameter],
  responses: {
    ...successResponses(
      "The OpenAPI document.",
      { type: "object", required: ["openapi", "paths"], properties: { openapi: { type: "string" }, paths: { type: "object" } } },
      { paged: false, keyed: false, cacheControl: CACHE_CONTROL.revalidatePublic, etag: etagHeader },
    ),
    "400": problemResponse("invalid_parameter", "A query parameter was given. The body's `parameter` names it."),
    "500": problems.internal,
  },
  "x-codeSamples": [curl("Download", 'curl -sS "$WAITLIST_URL/v1/openapi.json" -o openapi.json')],
};

const errorCodes = (Object.keys(ERROR_STATUS) as ErrorCode[])
  .map((code) => `- \`${code}\` (${ERROR_STATUS[code]}, ${ERROR_TITLES[code]})`)
  .join("\n");

const description = `A JSON API over the waitlists and signups of this Waitlist Admin: reading them, putting people on a waitlist (join), and changing the status of signups (${ACTION_NAMES}). Clients are scripts: every behaviour below is part of the contract and is tested against the real server.

Authentication: send an API key as \`Authorization: Bearer <key>\` (or \`X-API-Key: <key>\`); never in the query string. Keys come from an admin: on the dashboard's API keys page (\`/keys\`, for a \`waitlist:admin\` session) or with the command-line tool (\`npm run cli -- keys create\`). Every read needs the role ${code(VIEW_ROLE)}; the status actions (\`POST\`) need ${code(ADMIN_ROLE)}; joining a waitlist (\`POST /waitlist/{id}/signup\`) needs ${code(JOIN_ROLE)} or ${code(ADMIN_ROLE)}; the invitations (\`/invitations/{token}\`, its redeem) and completing by address need ${code(REDEEM_ROLE)} or ${code(ADMIN_ROLE)}. A missing, malformed, unknown, revoked or expired key is a 401 with \`WWW-Authenticate: Bearer realm="waitlist"\` and the same body in every case; a valid key without the role is a 403.

Order of checks: method, then authentication, then role, then parameters, then the resource. So \`POST\` on a read is a 405 even without a key, and a caller without a valid key learns nothing about ids or parameters.

Methods: reads are \`GET\`; \`HEAD\` answers like \`GET\` (same status and headers) without a body; \`OPTIONS\` is a 204 with \`Allow: ${ALLOWED_METHODS}\` (and answers CORS preflights); \`POST\`, \`PUT\`, \`PATCH\` and \`DELETE\` are a 405 with the same \`Allow\` header. The status actions are \`POST\` only (\`Allow: ${WRITE_ALLOWED_METHODS}\`); \`/waitlist/{id}/signup\` answers both (\`Allow: ${READ_WRITE_ALLOWED_METHODS}\`).

Statuses: every signup is ${orList(SIGNUP_STATUSES.map(code))}. The actions: ${STATUS_ACTION_NAMES.map((action) => `${action} (${STATUS_ACTIONS[action].from} → ${STATUS_ACTIONS[action].to})`).join(", ")}. Each changed signup gets one event in the server's event log (\`signup.invited\`, …), written in the same transaction, which never holds an address. Send an \`Idempotency-Key\` header to make a retry safe.

Errors: every non-2xx response, including unknown paths under \`/v1\`, is \`${PROBLEM_CONTENT_TYPE}\` (RFC 9457) with \`type\`, \`title\`, \`status\`, \`detail\`, a stable \`code\` and the \`request_id\`; a 400 also names the \`parameter\`. Branch on \`code\`, not on \`detail\` (which is for humans and may change). The codes:
${errorCodes}

Rate limits (per server process, so a restart forgets them): each API key may make \`RATE_LIMIT_PER_MINUTE\` requests (${ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE} by default) per window of 60 seconds that opens with its first request; each client address may fail authentication \`AUTH_FAILURES_PER_MINUTE\` times (${ENV_DEFAULTS.AUTH_FAILURES_PER_MINUTE} by default) per 60 seconds, after which its requests get 429 without the key being checked. Failed authentications are never charged to a key. Every response of an operation that needs a key carries the \`RateLimit-Policy\` and \`RateLimit\` headers of draft-ietf-httpapi-ratelimit-headers (e.g. \`RateLimit-Policy: "per-key";q=${ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE};w=60\` and \`RateLimit: "per-key";r=${ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE - 1};t=60\`: ${ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE - 1} requests left, the window resets in 60 s); a refused request is a 429 \`rate_limited\` problem with \`Retry-After\` (seconds). \`/v1/openapi.json\` is not limited.

Lists: by default a list is complete (a bare JSON array). Add \`limit\` (1–${MAX_PAGE_LIMIT}) for keyset pages: the \`Link: <url>; rel="next"\` header carries the next page's absolute URL (on the origin the request was sent to: its \`Host\` header, or \`X-Forwarded-Host\`/\`X-Forwarded-Proto\` when a reverse proxy the server trusts sets them) with an opaque cursor and all other parameters; the last page has no \`Link\`. Order is creation order, oldest first, ties broken by an internal id, stable across pages.

Paths have no trailing slash: a request to \`/v1/waitlist/\` is redirected (308, \`Cache-Control: no-store\`) to \`/v1/waitlist\`; that and \`304\` are the only non-2xx answers without a problem body. An unknown path under \`/v1\` is a 404 \`not_found\` problem for every method, answered before any key check (so without rate-limit headers).

Unknown query parameters, repeated parameters and values other than the documented ones are a 400 naming the parameter: a typo such as \`verfied=true\` never silently returns unfiltered data.

Every response carries a \`Request-Id\` header and a \`Cache-Control\` header (see Caching below). The version is the path prefix \`/v1\`: fields may be added to problem bodies, but resource objects keep exactly the fields documented here.

${HTTP_DESCRIPTION}`;

/** The operation of each /v1 route; the route table (./route-table.ts) puts them on their paths. */
const getWaitlistStats: OperationObject = {
  operationId: "getWaitlistStats",
  summary: "Get a waitlist's funnel",
  description: [
    "The funnel of one waitlist: join-page views, joins, verified, invited, completed and expired, with conversion rates, the median time from joining to the first invitation and from it to completing, and the referral factor (referred joins ÷ joins); per day, per week of joining (cohorts) and per source (`utm_source`, else the referring site).",
    "Counted by day of joining: `from` and `to` (UTC days, both inclusive) select the signups that joined then, and each stage counts for the day its signup joined (a signup that joined on Monday and was invited on Friday is in Monday's `invited`). Views count on the day they happened. The numbers are counted as signups change, not cached: the answer is current. The dashboard's funnel page and `waitlists stats` in the CLI show the same numbers.",
  ].join("\n\n"),
  tags: ["Waitlists"],
  parameters: [
    pathId,
    ...Object.entries(z.toJSONSchema(statsParamsSchema, { io: "input", target: "draft-2020-12" }).properties as Record<string, JsonSchema & { description?: string }>).map(([name, { description, ...schema }]) => ({
      name,
      in: "query" as const,
      required: false,
      description: description ?? name,
      schema,
    })),
    ifNoneMatchParameter,
  ],
  responses: {
    ...successResponses("The funnel.", ref("FunnelStats"), { paged: false, keyed: true, cacheControl: CACHE_CONTROL.revalidatePrivate, etag: etagHeader }),
    "400": problems.invalid_parameter("The id is not a UUID; a query parameter is unknown or repeated; `from` or `to` is not a date (YYYY-MM-DD) that exists; or `to` is before `from`."),
    ...errorsCommon,
    "404": problems.not_found("No waitlist has this id."),
  },
  "x-codeSamples": [curl("October's funnel", 'curl -sS -H "Authorization: Bearer $API_KEY" "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/stats?from=2026-10-01&to=2026-10-31"')],
};

export const operations = { listWaitlists, getWaitlist, listSignups, joinWaitlist, listEvents, getInvitation, redeemInvitation, getOpenApi, getWaitlistStats };

// Paced invitations (lib/api/schedule-routes.ts), for waitlist:admin.
const SCHEDULE_METHODS = "GET, HEAD, POST, OPTIONS";
const ONE_SCHEDULE_METHODS = "PATCH, DELETE, OPTIONS";
const pathScheduleId: ParameterObject = { name: "schedule_id", in: "path", required: true, description: "The schedule's id (`id` in its object). Not a positive integer is a 400 naming `schedule_id`.", schema: { type: "string", pattern: "^[1-9][0-9]{0,9}$" } };
const scheduleRefusals = {
  "401": problems.unauthenticated,
  "403": problemResponse("forbidden", `The API key does not carry ${code(ADMIN_ROLE)}, or a browser page on another origin sent a write.`, limitHeaders),
  "404": problems.not_found("No waitlist has this id, or it has no schedule with this id."),
  "429": problems.rate_limited,
  "500": problems.internal,
};
const scheduleAnswer = (description: string, schema: JsonSchema, cacheControl: CacheControl = CACHE_CONTROL.never): ResponseObject => ({
  description,
  headers: { "Request-Id": headers.requestId, "Cache-Control": cacheControlHeader(cacheControl), ...limitHeaders },
  content: { "application/json": { schema } },
});
const otherAnswers = (allow: string) => ({
  "204": optionsResponse(headers.requestId, false, allow),
  "308": redirectResponse(headers.requestId),
  "405": methodNotAllowedResponse((extra) => problemResponse("method_not_allowed", `Only ${allow} on this path.`, extra), allow),
});
const SCHEDULES_TEXT =
  "A paced invitation invites the next `batch` in line of its filter on its weekdays at its local time: the same status action as `POST …/signup/invite?limit=…` (statuses, one `signup.invited` event each, invitation emails), plus one `invitations.batch_sent` event and an audit row naming the schedule. Each slot runs exactly once, whichever server process gets there first; after downtime only the latest missed slot runs.";
const ruleBody = (required: boolean) => ({
  required: true,
  description: required ? "The schedule's rule." : "A new rule, or `paused`, or both.",
  content: {
    "application/json": {
      schema: {
        type: "object",
        additionalProperties: false,
        ...(required ? { required: ["rule"] } : {}),
        properties: {
          rule: { type: "string", maxLength: 2000, description: "`<days> at <HH:MM> [<time zone>] invite <N> [where <filter>] [guard <P>% over <D>d]`, such as `weekdays at 09:00 Europe/Berlin invite 200 where verified=true guard 20% over 7d`." },
          ...(required ? {} : { paused: { type: "boolean", description: "Pause (true) or resume (false) the schedule." } }),
        },
      },
    },
  },
});

const listSchedules: OperationObject = {
  operationId: "listSchedules",
  summary: "List a waitlist's schedules",
  description: [SCHEDULES_TEXT, `Needs ${code(ADMIN_ROLE)}.`].join("\n\n"),
  tags: ["Schedules"],
  parameters: [pathId],
  responses: {
    "200": scheduleAnswer("The waitlist's schedules, oldest first.", { type: "object", required: ["items"], additionalProperties: false, properties: { items: { type: "array", items: ref("Schedule") } } }),
    ...otherAnswers(SCHEDULE_METHODS),
    "400": problems.invalid_parameter("The id is not a UUID, or a query parameter was given."),
    ...scheduleRefusals,
  },
  "x-codeSamples": [curl("A waitlist's schedules", 'curl -sS -H "Authorization: Bearer $ADMIN_KEY" "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/schedules"')],
};

const addSchedule: OperationObject = {
  operationId: "addSchedule",
  summary: "Add a schedule",
  description: [SCHEDULES_TEXT, `A schedule runs only for slots after it was added. Audited. Needs ${code(ADMIN_ROLE)}.`].join("\n\n"),
  tags: ["Schedules"],
  parameters: [pathId],
  requestBody: ruleBody(true),
  responses: {
    "201": scheduleAnswer("The schedule, added.", ref("Schedule")),
    ...otherAnswers(SCHEDULE_METHODS),
    "400": problems.invalid_parameter("The body is not JSON, has an unknown property, or its rule does not read (the detail says why: days, time, time zone, batch of 1 to 10,000, a filter /v1 refuses, guard)."),
    ...scheduleRefusals,
  },
  "x-codeSamples": [
    curl("Every weekday at 09:00 in Berlin", `curl -sS -X POST -H "Authorization: Bearer $ADMIN_KEY" -H "Content-Type: application/json" \\\n  -d '{"rule": "weekdays at 09:00 Europe/Berlin invite 200 where verified=true"}' "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/schedules"`),
  ],
};

const changeSchedule: OperationObject = {
  operationId: "changeSchedule",
  summary: "Change, pause or resume a schedule",
  description: `A new rule, or \`paused\`: true pauses it (no run until resumed), false resumes it (its next slot runs; a pause by its guard is lifted). Audited. Needs ${code(ADMIN_ROLE)}.`,
  tags: ["Schedules"],
  parameters: [pathId, pathScheduleId],
  requestBody: ruleBody(false),
  responses: {
    "200": scheduleAnswer("The schedule, changed.", ref("Schedule")),
    ...otherAnswers(ONE_SCHEDULE_METHODS),
    "400": problems.invalid_parameter("The ids are malformed, the body is not JSON or has an unknown property, or its rule does not read."),
    ...scheduleRefusals,
  },
  "x-codeSamples": [curl("Pause", `curl -sS -X PATCH -H "Authorization: Bearer $ADMIN_KEY" -H "Content-Type: application/json" -d '{"paused": true}' "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/schedules/1"`)],
};

const removeSchedule: OperationObject = {
  operationId: "removeSchedule",
  summary: "Remove a schedule",
  description: `The schedule and the record of its runs go; what it invited stays invited. Audited. Needs ${code(ADMIN_ROLE)}.`,
  tags: ["Schedules"],
  parameters: [pathId, pathScheduleId],
  responses: {
    "200": scheduleAnswer("The schedule as it was.", ref("Schedule")),
    ...otherAnswers(ONE_SCHEDULE_METHODS),
    "400": problems.invalid_parameter("The ids are malformed, or a query parameter was given."),
    ...scheduleRefusals,
  },
  "x-codeSamples": [curl("Remove", 'curl -sS -X DELETE -H "Authorization: Bearer $ADMIN_KEY" "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/schedules/1"')],
};

const previewSchedule: OperationObject = {
  operationId: "previewSchedule",
  summary: "Preview a schedule's next run",
  description: `Who the schedule's next run would invite, were it now: how many (at most its batch) and the first few, in line order. Nothing changes. Needs ${code(ADMIN_ROLE)}.`,
  tags: ["Schedules"],
  parameters: [pathId, pathScheduleId],
  responses: {
    "200": scheduleAnswer(
      "The preview.",
      {
        type: "object",
        required: ["next_run_at", "count", "first"],
        additionalProperties: false,
        properties: {
          next_run_at: { type: ["string", "null"], format: "date-time", description: "The next slot; null while paused." },
          count: { type: "integer", minimum: 0, description: "How many the run would invite now." },
          first: { type: "array", description: "The first few of them.", items: { type: "object", required: ["id", "email"], additionalProperties: false, properties: { id: { type: "integer" }, email: { type: "string" } } } },
        },
      },
      CACHE_CONTROL.personalData,
    ),
    ...otherAnswers(ALLOWED_METHODS),
    "400": problems.invalid_parameter("The ids are malformed, or a query parameter was given."),
    ...scheduleRefusals,
  },
  "x-codeSamples": [curl("Preview", 'curl -sS -H "Authorization: Bearer $ADMIN_KEY" "$WAITLIST_URL/v1/waitlist/$WAITLIST_ID/schedules/1/preview"')],
};

export const scheduleOperations = { listSchedules, addSchedule, changeSchedule, removeSchedule, previewSchedule };

/** The document, with the paths of the route table. */
export const openApiDocumentWith = (paths: OpenApiDocument["paths"]): OpenApiDocument => ({
  openapi: "3.1.1",
  jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
  info: {
    title: "Waitlist API",
    version: "1.0.0",
    description,
    contact: { name: "The operator of this server, who issues the API keys" },
    license: { name: "Proprietary: for the clients of this server", identifier: "LicenseRef-Proprietary" },
  },
  servers: [{ url: "/v1", description: "This server (the document's own origin)." }],
  tags: [
    { name: "Waitlists", description: "The waitlists that were created." },
    { name: "Signups", description: "The signups of one waitlist." },
    { name: "Events", description: "What happened to a waitlist's signups: the bodies its webhooks carry." },
    { name: "Invitations", description: "Invite links, for a product's sign-up: look at a token, redeem it." },
    { name: "Schedules", description: "Paced invitations: invite the next N of a filter on a weekly schedule." },
    { name: "Meta", description: "About the API itself." },
  ],
  security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
  paths,
  components: {
    schemas: {
      Waitlist: responseSchema(waitlistResponseSchema),
      Signup: responseSchema(signupResponseSchema),
      SignupWithFields: responseSchema(signupWithFieldsSchema),
      Event: responseSchema(eventResponseSchema),
      JoinedSignup: responseSchema(joinedSignupResponseSchema),
      AlreadyOnList: responseSchema(alreadyOnListResponseSchema),
      Invitation: responseSchema(invitationResponseSchema),
      FunnelStats: responseSchema(funnelStatsResponseSchema),
      Schedule: responseSchema(scheduleResponseSchema),
      StatusActionResult: {
        type: "object",
        description: `The answer of a status action (${ACTION_NAMES}).`,
        required: ["changed", "skipped", "signups"],
        additionalProperties: false,
        properties: {
          changed: { type: "integer", minimum: 0, description: "How many signups changed status." },
          skipped: { type: "integer", minimum: 0, description: "Listed addresses not changed: in another status, or not on the waitlist (always 0 with a filter)." },
          signups: { type: "array", items: responseSchema(signupWithStatusSchema), description: "The changed signups, oldest first." },
        },
      },
      Problem: {
        type: "object",
        description: "An RFC 9457 problem detail.",
        required: ["type", "title", "status", "detail", "code", "request_id"],
        additionalProperties: false,
        properties: {
          type: { type: "string", format: "uri-reference", description: `A link (relative to the API origin) to this code's entry in the API reference, e.g. \`${problemType("not_found")}\`.` },
          title: { type: "string", description: "A short summary that is the same for every problem with this code." },
          status: { type: "integer", enum: [...new Set(Object.values(ERROR_STATUS))], description: "The HTTP status, repeated." },
          detail: { type: "string", description: "What went wrong this time, for humans." },
          code: { type: "string", enum: Object.keys(ERROR_STATUS), description: "Stable and machine-readable: branch on this." },
          request_id: { type: "string", format: "uuid", description: "The same value as the `Request-Id` header." },
          parameter: { type: "string", description: "Only with `invalid_parameter`: the path or query parameter at fault (`id`, `limit`, the unknown name, ...)." },
        },
      },
    },
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <key>`. Keys look like `wl_` followed by 43 base64url characters." },
      apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "The same key in `X-API-Key: <key>`, for clients that cannot set Authorization. When both headers are sent, only Authorization is read." },
    },
  },
});
