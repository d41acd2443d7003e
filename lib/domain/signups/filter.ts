import type { SQL, SQLWrapper, sql as sqlTag } from "drizzle-orm";
import type { signups as signupsTable } from "@/db/schema";
import type { Dialect } from "@/lib/store/dialect";
import { instantParamValue, parseInstant } from "@/lib/core/instant";
import { MAX_EMAIL_LENGTH } from "./email-address";
import { parseSignupPublicId, signupPublicId } from "./id";
import { andList, code, orList } from "@/lib/core/prose";
import { isSignupStatus, SIGNUP_STATUSES, STATUS_ACTION_NAMES, type SignupStatus } from "./status";
import { FLAG_REASON_LABELS, FLAG_REASONS, isFlagReason, type FlagReason } from "../fraud/reasons";
import { MAX_SOURCE_TEXT, sourceValue, type SourceField } from "../funnel/source";

// The one list of signup filters. Each descriptor holds everything about one filter: its public name
// (the /v1 query parameter, the dashboard URL's, and `--<name>` in the CLI), how its text is read and
// written, its OpenAPI entry, its chip, its SQL and what the query planner must know. /v1 and the CLI
// (strictly, lib/domain/signups/filter-params.ts), the dashboard (leniently, lib/dashboard/signup-table.ts),
// the SQL (scope-sql.ts) and the OpenAPI document all walk this list. Client components build URLs from
// it, so it imports neither zod (its object schemas probe `new Function`, which the CSP refuses) nor the
// database at run time: the SQL is written with the tag and table scope-sql.ts hands in.

/** One custom input that must be present: a (label, value) pair, the value compared as text. */
export interface InputMatch {
  label: string;
  value: string;
}

export const MAX_FILTER_TEXT = 320;

/** A parameter's text read as a value, or why not: the rest of "The query parameter "x" …". */
export type Parsed<Value> = { ok: true; value: Value } | { ok: false; message: string };

/** What scope-sql.ts hands a descriptor to bind its values: the pattern of a literal substring (lib/store/contains.ts), and the email search index's. */
export interface BindKit {
  containsPattern: (text: string) => string;
  searchIndexPattern: (text: string) => string;
}

/** What scope-sql.ts hands a descriptor to write its test: the tag, the table, named placeholders, and the connection's dialect. */
export interface SqlKit {
  sql: typeof sqlTag;
  signups: typeof signupsTable;
  placeholder: (name: string) => SQL;
  dialect: Dialect;
  /** A case-insensitive "contains" of a column, matched against the pattern bound to the placeholder (lib/store/contains.ts). */
  containsText: (column: SQL | SQLWrapper, placeholderName: string) => SQL;
}

/**
 * What the planner (access.ts) needs of a filter: `row`, a test of each row walked in list order
 * (cheap when it holds for many rows); `range`, a bound of creation time (it narrows the walk and the
 * custom-input access); `unique`, at most one row, found in a unique index; `search`, rows found in
 * the trigram index when they are few.
 */
export type PlannerRole = "row" | "range" | "unique" | "search";

export interface FilterDescriptor<Value, Name extends string = string> {
  name: Name;
  parse(text: string): Parsed<Value>;
  /** The text parse reads back as the same value. */
  format(value: Value): string;
  /** The dashboard's URL is read leniently: this runs first, and undefined means "no filter". */
  lenient?(text: string): string | undefined;
  /** Equal filters give equal parts (scope keys of caches and cursors). */
  keyPart(value: Value): string | number | boolean;
  /** Its OpenAPI entry, and what makes its text a 400 (the rest of "`name` …"). */
  openapi: { description: string; schema: Record<string, unknown>; invalid: string };
  cli: { argument: string; help: string };
  /** The words of its chip in the dashboard's filter bar. */
  chip(value: Value): string;
  planner: PlannerRole;
  /** signup_counts keeps what it tests (a flag, the status or the creation time): counts and charts of scopes with only such filters are read there. */
  aggregated: boolean;
  /** signup_inputs' rows keep it too (the flags and the creation time): custom-input slices of scopes with only such filters are read there. */
  inputSliced: boolean;
  /** The placeholder values (the driver's: 1/0, epoch ms, text) when the filter is set. */
  bind(value: Value, kit: BindKit): Record<string, string | number>;
  where(kit: SqlKit): SQL;
}

function filter<Value, Name extends string>(descriptor: FilterDescriptor<Value, Name>): FilterDescriptor<Value, Name> {
  return descriptor;
}

const BOOLEAN_WORD = 'must be "true" or "false"';
function booleanWord(text: string): Parsed<boolean> {
  return text === "true" || text === "false" ? { ok: true, value: text === "true" } : { ok: false, message: BOOLEAN_WORD };
}

const INSTANT_FORMS = "must be an ISO 8601 date (2026-10-01) or date-time with an offset (2026-10-01T09:30:00Z)";
function instant(text: string): Parsed<Date> {
  const value = parseInstant(text);
  if (value) return { ok: true, value };
  // "…T09:30:00+02:00" unencoded in a URL arrives as "…T09:30:00 02:00": a + in a query string is a space.
  const plusAsSpace = / \d{2}:\d{2}$/.test(text) && parseInstant(text.replace(/ (?=\d{2}:\d{2}$)/, "+")) !== undefined;
  return { ok: false, message: plusAsSpace ? `${INSTANT_FORMS}; in a URL, write the + of an offset as %2B` : INSTANT_FORMS };
}

function filterText(text: string, max = MAX_FILTER_TEXT): Parsed<string> {
  if (text.length < 1) return { ok: false, message: "must not be empty" };
  if (text.length > max) return { ok: false, message: `must be at most ${max} characters` };
  return { ok: true, value: text };
}

/** An address, or a part of one: no longer than an address may be. */
const emailText = (text: string) => filterText(text, MAX_EMAIL_LENGTH);

const text = { format: (value: string) => value, keyPart: (value: string) => value.toLowerCase() };
const flag = { parse: booleanWord, format: String, keyPart: (value: boolean) => value, planner: "row" as const, aggregated: true, inputSliced: true, openapi: { type: "string", enum: ["true", "false"] } };
const flagInvalid = "is not `true` or `false`";
const instantWire = { anyOf: [{ type: "string", format: "date" }, { type: "string", format: "date-time" }], examples: ["2026-10-01", "2026-10-01T09:30:00Z"] };
const emailWire = { type: "string", minLength: 1, maxLength: MAX_EMAIL_LENGTH };
const emailInvalid = `is empty or longer than ${MAX_EMAIL_LENGTH} characters`;
const STATUS_WORDS = `must be one or more of ${SIGNUP_STATUSES.join(", ")}, separated by commas`;
function statusList(text: string): Parsed<SignupStatus[]> {
  const words = text.split(",").map((word) => word.trim());
  const unknown = words.find((word) => !isSignupStatus(word));
  if (unknown !== undefined) return { ok: false, message: `${STATUS_WORDS} (not ${JSON.stringify(unknown)})` };
  // In the list's own order, each once: equal filters are written alike.
  return { ok: true, value: SIGNUP_STATUSES.filter((status) => words.includes(status)) };
}

const FLAG_WORDS = `must be one or more of ${FLAG_REASONS.join(", ")}, separated by commas`;
function flagList(text: string): Parsed<FlagReason[]> {
  const words = text.split(",").map((word) => word.trim());
  const unknown = words.find((word) => !isFlagReason(word));
  if (unknown !== undefined) return { ok: false, message: `${FLAG_WORDS} (not ${JSON.stringify(unknown)})` };
  return { ok: true, value: FLAG_REASONS.filter((reason) => words.includes(reason)) };
}

function milestoneLabels(text: string): Parsed<string[]> {
  if (text.length > MAX_FILTER_TEXT) return { ok: false, message: `must be at most ${MAX_FILTER_TEXT} characters` };
  const labels = text.split(",").map((word) => word.trim());
  if (labels.some((label) => label === "")) return { ok: false, message: "must name one or more milestones by label, separated by commas (an empty label names none)" };
  return { ok: true, value: labels };
}

const SOURCE_COLUMNS = { utm_source: "utmSource", utm_medium: "utmMedium", utm_campaign: "utmCampaign", referrer: "referrer" } as const;

/** A filter on one of the source fields given at join (lib/domain/funnel/source.ts): the exact value, as stored. */
function sourceFilter<Name extends SourceField>(name: Name, what: string, example: string) {
  const column = SOURCE_COLUMNS[name];
  return filter<string, Name>({
    name,
    parse: (text) => {
      const parsed = sourceValue(name, text);
      if (!parsed.ok) return parsed;
      return parsed.value === undefined ? { ok: false, message: "must not be empty" } : { ok: true, value: parsed.value };
    },
    format: (value) => value,
    lenient: (text) => text.trim() || undefined,
    keyPart: (value) => value,
    openapi: {
      description: `Only signups whose ${what} is exactly this text (as given at join, case-sensitive${name === "referrer" ? "; a URL is read as its host" : ""}): \`${name}=${example}\`. 1–${MAX_SOURCE_TEXT} characters of one line.`,
      schema: { type: "string", minLength: 1, maxLength: name === "referrer" ? 2048 : MAX_SOURCE_TEXT, examples: [example] },
      invalid: `is empty, longer than ${MAX_SOURCE_TEXT} characters or not one line of plain text`,
    },
    cli: { argument: "<text>", help: `only signups whose ${what} is this text` },
    chip: (value) => `${name}: ${value}`,
    // Walked in order, or, when set, through its partial index (waitlist, value, created_at) of migration 0023.
    planner: "row",
    aggregated: false,
    inputSliced: false,
    bind: (value) => ({ [name]: value }),
    where: ({ sql, signups, placeholder }) => sql`${signups[column]} = ${placeholder(name)}`,
  });
}

/** Day text for chips: an instant at UTC midnight as its date, any other as its ISO form. */
const day = (value: Date) => instantParamValue(value);

/** Every filter but custom inputs (see INPUT_FILTER), in the order URLs, options and the document list them. */
export const SIGNUP_FILTERS = {
  verified: filter({
    ...flag,
    name: "verified",
    openapi: { description: "Only signups whose email is verified (`true`) or not verified (`false`). Exactly these two words; anything else is a 400.", schema: flag.openapi, invalid: flagInvalid },
    cli: { argument: "<true|false>", help: "only verified, or only unverified, signups" },
    chip: (value) => (value ? "Verified" : "Not verified"),
    bind: (value) => ({ verified: value ? 1 : 0 }),
    where: ({ sql, signups, placeholder }) => sql`${signups.verified} = ${placeholder("verified")}`,
  }),
  referral: filter({
    ...flag,
    name: "referral",
    openapi: { description: "Only signups that came from a referral (`true`) or not (`false`). Exactly these two words; combined with `verified` it means both (AND).", schema: flag.openapi, invalid: flagInvalid },
    cli: { argument: "<true|false>", help: "only referrals, or only the others" },
    chip: (value) => (value ? "Referral" : "Not a referral"),
    bind: (value) => ({ referral: value ? 1 : 0 }),
    where: ({ sql, signups, placeholder }) => sql`${signups.referral} = ${placeholder("referral")}`,
  }),
  status: filter({
    name: "status",
    parse: statusList,
    format: (value) => value.join(","),
    // The dashboard's URL: unknown words are dropped, and none left means no filter.
    lenient: (text) => text.split(",").map((word) => word.trim()).filter(isSignupStatus).join(",") || undefined,
    keyPart: (value) => value.join(","),
    openapi: {
      description: `Only signups in one of these statuses, comma-separated: ${SIGNUP_STATUSES.map((status) => `\`${status}\``).join(", ")} (\`status=waiting,invited\`). Every signup starts \`waiting\`; the ${andList(STATUS_ACTION_NAMES)} operations change it. An unknown word is a 400.`,
      schema: { type: "string", pattern: `^(${SIGNUP_STATUSES.join("|")})(,(${SIGNUP_STATUSES.join("|")}))*$`, examples: ["waiting", "waiting,invited"] },
      invalid: `names something other than ${orList(SIGNUP_STATUSES.map(code))}`,
    },
    cli: { argument: "<statuses>", help: `only signups in these statuses, comma-separated (${SIGNUP_STATUSES.join(", ")})` },
    chip: (value) => `Status: ${value.join(" or ")}`,
    planner: "row",
    aggregated: true,
    inputSliced: false,
    bind: (value) => ({ status: JSON.stringify(value) }),
    where: ({ sql, signups, placeholder, dialect }) => sql`${signups.status} ${dialect.inJson(placeholder("status"))}`,
  }),
  referredBy: filter({
    name: "referred_by",
    parse: (text) => {
      const id = parseSignupPublicId(text);
      return id === undefined ? { ok: false, message: "must be a signup id (as `fields=id` gives it)" } : { ok: true, value: id };
    },
    format: signupPublicId,
    lenient: (value) => (parseSignupPublicId(value.trim()) === undefined ? undefined : value.trim()),
    keyPart: (value) => value,
    openapi: {
      description: "Only the signups that joined with the referral code of this signup (its `id`, as `fields=id` gives it): the people it referred. A signup that referred nobody, or an id of another list, gives `[]`.",
      schema: { type: "string", pattern: "^[1-9][0-9]{0,15}$", examples: ["42"] },
      invalid: "is not a signup id",
    },
    cli: { argument: "<signup id>", help: "only the signups this signup referred" },
    chip: (value) => `Referred by signup ${signupPublicId(value)}`,
    // Few rows: SQLite reaches them in creation order through signups_referred_by_idx (referred_by, created_at).
    planner: "row",
    aggregated: false,
    inputSliced: false,
    bind: (value) => ({ referredBy: value }),
    where: ({ sql, signups, placeholder }) => sql`${signups.referredBy} = ${placeholder("referredBy")}`,
  }),
  flag: filter({
    name: "flag",
    parse: flagList,
    format: (value) => value.join(","),
    lenient: (text) => text.split(",").map((word) => word.trim()).filter(isFlagReason).join(",") || undefined,
    keyPart: (value) => value.join(","),
    openapi: {
      description: `Only signups waiting for review with a flag for one of these reasons, comma-separated: ${FLAG_REASONS.map(code).join(", ")} (\`flag=${FLAG_REASONS.join(",")}\`: every signup waiting for review). A decided flag (approved or discounted) no longer matches. An unknown word is a 400.`,
      schema: { type: "string", pattern: `^(${FLAG_REASONS.join("|")})(,(${FLAG_REASONS.join("|")}))*$`, examples: ["disposable", FLAG_REASONS.join(",")] },
      invalid: `names something other than ${orList(FLAG_REASONS.map(code))}`,
    },
    cli: { argument: "<reasons>", help: `only signups waiting for review with a flag for one of these reasons, comma-separated (${FLAG_REASONS.join(", ")})` },
    chip: (value) => `Flagged: ${value.map((reason) => FLAG_REASON_LABELS[reason].toLowerCase()).join(" or ")}`,
    // Few rows: each signup walked is tested through signup_flags' primary key (signup_id, reason).
    planner: "row",
    aggregated: false,
    inputSliced: false,
    bind: (value) => ({ flag: JSON.stringify(value) }),
    where: ({ sql, signups, placeholder, dialect }) =>
      sql`exists (select 1 from signup_flags where signup_flags.signup_id = ${signups.id} and signup_flags.decision = 'pending' and signup_flags.reason ${dialect.inJson(placeholder("flag"))})`,
  }),
  milestone: filter({
    name: "milestone",
    parse: milestoneLabels,
    format: (value) => value.join(","),
    lenient: (text) => text.split(",").map((word) => word.trim()).filter((word) => word !== "").join(",") || undefined,
    keyPart: (value) => value.join(",").toLowerCase(),
    openapi: {
      description: "Only signups that reached one of these milestones, named by their labels (any case), comma-separated. A label the waitlist has no milestone for matches nothing.",
      schema: { type: "string", minLength: 1, maxLength: MAX_FILTER_TEXT, examples: ["Early access", "Early bird,Early access"] },
      invalid: `is empty, has an empty label or is longer than ${MAX_FILTER_TEXT} characters`,
    },
    cli: { argument: "<labels>", help: "only signups that reached one of these milestones, by label, comma-separated" },
    chip: (value) => `Reached ${orList(value.map((label) => `“${label}”`))}`,
    // Few rows: each signup walked is tested through signup_milestones' primary key (signup_id, referrals).
    planner: "row",
    aggregated: false,
    inputSliced: false,
    bind: (value) => ({ milestone: JSON.stringify(value.map((label) => label.toLowerCase())) }),
    where: ({ sql, signups, placeholder, dialect }) =>
      sql`exists (select 1 from signup_milestones join milestones on milestones.waitlist_id = signup_milestones.waitlist_id and milestones.referrals = signup_milestones.referrals where signup_milestones.signup_id = ${signups.id} and lower(milestones.label) ${dialect.inJson(placeholder("milestone"))})`,
  }),
  createdSince: filter({
    name: "created_since",
    parse: instant,
    format: instantParamValue,
    keyPart: (value) => value.getTime(),
    openapi: {
      description:
        "Only signups created at or after this instant (inclusive): an ISO 8601 date (`2026-10-01`, midnight UTC) or a date-time with an offset (`2026-10-01T09:30:00Z`, `2026-10-01T11:30:00+02:00`; in a URL the `+` is written `%2B`). A date-time without an offset, an impossible date (`2026-02-30`) or any other text is a 400.",
      schema: instantWire,
      invalid: "is not a date or a date-time with an offset",
    },
    cli: { argument: "<date>", help: "created at or after: an ISO 8601 date (midnight UTC) or date-time with an offset" },
    chip: (value) => `Signed up from ${day(value)}`,
    planner: "range",
    aggregated: true,
    inputSliced: true,
    bind: (value) => ({ since: value.getTime() }),
    where: ({ sql, signups, placeholder }) => sql`${signups.createdAt} >= ${placeholder("since")}`,
  }),
  createdUntil: filter({
    name: "created_until",
    parse: instant,
    format: instantParamValue,
    keyPart: (value) => value.getTime(),
    openapi: {
      description:
        "Only signups created before this instant (exclusive), in the same forms as `created_since`: `created_since=2026-10-01&created_until=2026-11-01` is the whole of October (UTC). It must be later than `created_since`, else a 400 names `created_until`.",
      schema: instantWire,
      invalid: "is not a date or a date-time with an offset, or not later than `created_since`",
    },
    cli: { argument: "<date>", help: "created before: an ISO 8601 date (midnight UTC) or date-time with an offset" },
    chip: (value) => `Signed up before ${day(value)}`,
    planner: "range",
    aggregated: true,
    inputSliced: true,
    bind: (value) => ({ until: value.getTime() }),
    where: ({ sql, signups, placeholder }) => sql`${signups.createdAt} < ${placeholder("until")}`,
  }),
  email: filter({
    ...text,
    name: "email",
    parse: emailText,
    lenient: (value) => value.trim() || undefined,
    openapi: { description: `Only the signup with exactly this address, compared case-insensitively (ASCII letters): at most one signup, since a waitlist holds an address once. 1–${MAX_EMAIL_LENGTH} characters.`, schema: emailWire, invalid: emailInvalid },
    cli: { argument: "<address>", help: "the whole address, in any case" },
    chip: (value) => `Email is “${value}”`,
    planner: "unique",
    aggregated: false,
    inputSliced: false,
    bind: (value) => ({ email: value }),
    where: ({ sql, signups, placeholder }) => sql`lower(${signups.email}) = lower(${placeholder("email")})`,
  }),
  emailContains: filter({
    ...text,
    name: "email_contains",
    parse: emailText,
    // The search box: trimmed, and empty means none.
    lenient: (value) => value.trim() || undefined,
    openapi: {
      description:
        `Only signups whose address contains this text, compared case-insensitively (ASCII letters), like the dashboard search: \`@acme.com\`, \`jane\`. \`%\` and \`_\` are plain characters. Text of 3 characters or more is answered from a trigram index; shorter text reads the whole list. 1–${MAX_EMAIL_LENGTH} characters.`,
      schema: emailWire,
      invalid: emailInvalid,
    },
    cli: { argument: "<text>", help: "a part of the address, in any case" },
    chip: (value) => `Email contains “${value}”`,
    planner: "search",
    aggregated: false,
    inputSliced: false,
    bind: (value, { containsPattern, searchIndexPattern }) => ({
      contains: containsPattern(value),
      containsTrigrams: searchIndexPattern(value),
    }),
    where: ({ signups, containsText }) => containsText(signups.email, "contains"),
  }),
  utmSource: sourceFilter("utm_source", "`utm_source`", "newsletter"),
  utmMedium: sourceFilter("utm_medium", "`utm_medium`", "email"),
  utmCampaign: sourceFilter("utm_campaign", "`utm_campaign`", "launch"),
  referrer: sourceFilter("referrer", "referring site (`referrer`)", "news.ycombinator.com"),
};

export type FilterKey = keyof typeof SIGNUP_FILTERS;
type ValueOf<Key extends FilterKey> = (typeof SIGNUP_FILTERS)[Key] extends FilterDescriptor<infer Value, string> ? Value : never;

/** Which signups of a waitlist: every filter that is set must hold (AND). */
export type SignupFilter = { [Key in FilterKey]?: ValueOf<Key> } & {
  /** Custom inputs the signup must have, all of them; at most one per label. */
  inputs?: InputMatch[];
};

export type SignupScope = SignupFilter & { waitlistId: string };

export const FILTER_KEYS = Object.keys(SIGNUP_FILTERS) as FilterKey[];

/** The descriptor of a key, typed for any value (each caller passes that key's value). */
export function descriptorOf(key: FilterKey): FilterDescriptor<unknown> {
  return SIGNUP_FILTERS[key] as FilterDescriptor<unknown>;
}

/** The scope without its verified, referral and status filters: the dashboard counts it for those filters' facets (counts.ts). */
export function withoutFlags(scope: SignupScope): SignupScope {
  return { ...scope, verified: undefined, referral: undefined, status: undefined };
}

/** The filters set in a filter, in list order, with their values. */
export function setFilters(filter: SignupFilter): { key: FilterKey; descriptor: FilterDescriptor<unknown>; value: unknown }[] {
  return FILTER_KEYS.filter((key) => filter[key] !== undefined).map((key) => ({ key, descriptor: descriptorOf(key), value: filter[key] }));
}

/** `input.company=Acme`: the family of parameters that filter on custom inputs, one per label. */
export const INPUT_FILTER = {
  prefix: "input.",
  cli: { option: "--input", argument: "<label=value>", help: "a custom input the signup must have (repeat for more labels)" },
  chip: (input: InputMatch) => `${input.label}: ${input.value}`,
};
/** The prefix of the query parameters that filter on custom inputs: `input.company=Acme`. */
export const INPUT_PARAM_PREFIX = INPUT_FILTER.prefix;

/** Custom-input filters per request: each is a subquery, and SQLite refuses a statement past about a thousand. */
export const MAX_INPUT_FILTERS = 10;

/** The CLI option of a filter: `created_since` → `--created-since`. */
export function cliOption(name: string): string {
  return `--${name.replaceAll("_", "-")}`;
}

/** Splits `input.<label>` parameters off a parameter record; `onEmptyLabel` decides what an empty label does. */
export function splitInputParams(values: Record<string, string>, onEmptyLabel: (name: string) => void) {
  const rest: Record<string, string> = {};
  const inputs: InputMatch[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (!name.startsWith(INPUT_PARAM_PREFIX)) {
      rest[name] = value;
      continue;
    }
    const label = name.slice(INPUT_PARAM_PREFIX.length);
    if (label === "") onEmptyLabel(name);
    else inputs.push({ label, value });
  }
  return { rest, inputs };
}

/** Whether a filter's range is empty by construction: the caller answers 400 naming `created_until`. */
export function hasInvertedRange(filter: SignupFilter): boolean {
  return filter.createdSince !== undefined && filter.createdUntil !== undefined && filter.createdUntil.getTime() <= filter.createdSince.getTime();
}

/** The query parameters (/v1's, and the dashboard's) that select the same signups, in list order. */
export function filterToApiParams(filter: SignupFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const { descriptor, value } of setFilters(filter)) params.set(descriptor.name, descriptor.format(value));
  for (const input of filter.inputs ?? []) params.set(INPUT_PARAM_PREFIX + input.label, input.value);
  return params;
}

/** The `signups export` options that select the same signups (arguments, unquoted). */
export function filterToCliArgs(filter: SignupFilter): string[] {
  const args: string[] = [];
  for (const { descriptor, value } of setFilters(filter)) args.push(cliOption(descriptor.name), descriptor.format(value));
  for (const input of filter.inputs ?? []) args.push(INPUT_FILTER.cli.option, `${input.label}=${input.value}`);
  return args;
}

/** A stable text for a scope: equal scopes give equal keys (caches, cursors). */
export function scopeKey(scope: SignupScope): string {
  return JSON.stringify([
    scope.waitlistId,
    ...FILTER_KEYS.map((key) => (scope[key] === undefined ? null : descriptorOf(key).keyPart(scope[key]))),
    [...(scope.inputs ?? [])].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)).map((input) => [input.label, input.value]),
  ]);
}
