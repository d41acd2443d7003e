import { DAY_MS } from "@/lib/core/time";

// The one filter model of signups. /v1 (strictly), the CLI (through the same strict schema, in
// filter-params.ts) and the dashboard (leniently, from its URL) all parse into a SignupFilter, and
// the query layer takes nothing else. Client components use the serializers, so this file imports
// neither the database nor zod (zod's object schemas probe `new Function`, which the CSP refuses).

/** One custom input that must be present: a (label, value) pair, the value compared as text. */
export interface InputMatch {
  label: string;
  value: string;
}

/** Which signups of a waitlist: every field that is set must hold (AND). */
export interface SignupFilter {
  verified?: boolean;
  referral?: boolean;
  /** Created at or after this instant. */
  createdSince?: Date;
  /** Created before this instant. */
  createdUntil?: Date;
  /** The whole address, compared case-insensitively (ASCII). */
  email?: string;
  /** A substring of the address, compared case-insensitively (ASCII). */
  emailContains?: string;
  /** Custom inputs the signup must have, all of them; at most one per label. */
  inputs?: InputMatch[];
}

export interface SignupScope extends SignupFilter {
  waitlistId: string;
}

/** The prefix of the query parameters that filter on custom inputs: `input.company=Acme`. */
export const INPUT_PARAM_PREFIX = "input.";

export const MAX_FILTER_TEXT = 320;

/** Custom-input filters per request: each is a subquery, and SQLite refuses a statement past about a thousand. */
export const MAX_INPUT_FILTERS = 10;

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// A date-time needs an offset: without one, "2026-10-01T09:00" means a different instant per server.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A calendar date that exists (no February 30th), as its UTC midnight. */
function utcDate(year: string, month: string, day: string): Date | undefined {
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const valid = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return valid ? date : undefined;
}

/**
 * An ISO 8601 date (`2026-10-01`, midnight UTC) or date-time with an offset
 * (`2026-10-01T09:30:00Z`, `2026-10-01T11:30:00+02:00`); undefined for anything else.
 */
export function parseInstant(text: string): Date | undefined {
  const date = DATE_ONLY.exec(text);
  if (date) return utcDate(date[1]!, date[2]!, date[3]!);
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) return undefined;
  const [, year, month, day, hour, minute, second = "0"] = dateTime;
  if (!utcDate(year!, month!, day!) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
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

/** An instant as a query value: the date alone at UTC midnight, else the full ISO 8601 UTC form. */
export function instantParamValue(instant: Date): string {
  const iso = instant.toISOString();
  return instant.getTime() % DAY_MS === 0 ? iso.slice(0, 10) : iso;
}

/** The /v1 query parameters that select the same signups, in a fixed order. */
export function filterToApiParams(filter: SignupFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.verified !== undefined) params.set("verified", String(filter.verified));
  if (filter.referral !== undefined) params.set("referral", String(filter.referral));
  if (filter.createdSince) params.set("created_since", instantParamValue(filter.createdSince));
  if (filter.createdUntil) params.set("created_until", instantParamValue(filter.createdUntil));
  if (filter.email !== undefined) params.set("email", filter.email);
  if (filter.emailContains !== undefined) params.set("email_contains", filter.emailContains);
  for (const input of filter.inputs ?? []) params.set(INPUT_PARAM_PREFIX + input.label, input.value);
  return params;
}

/** The `signups export` options that select the same signups (arguments, unquoted). */
export function filterToCliArgs(filter: SignupFilter): string[] {
  const args: string[] = [];
  if (filter.verified !== undefined) args.push("--verified", String(filter.verified));
  if (filter.referral !== undefined) args.push("--referral", String(filter.referral));
  if (filter.createdSince) args.push("--created-since", instantParamValue(filter.createdSince));
  if (filter.createdUntil) args.push("--created-until", instantParamValue(filter.createdUntil));
  if (filter.email !== undefined) args.push("--email", filter.email);
  if (filter.emailContains !== undefined) args.push("--email-contains", filter.emailContains);
  for (const input of filter.inputs ?? []) args.push("--input", `${input.label}=${input.value}`);
  return args;
}

/** A stable text for a scope: equal scopes give equal keys (caches, cursors). */
export function scopeKey(scope: SignupScope): string {
  return JSON.stringify([
    scope.waitlistId,
    scope.verified ?? null,
    scope.referral ?? null,
    scope.createdSince?.getTime() ?? null,
    scope.createdUntil?.getTime() ?? null,
    scope.email?.toLowerCase() ?? null,
    scope.emailContains?.toLowerCase() ?? null,
    [...(scope.inputs ?? [])].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0)).map((input) => [input.label, input.value]),
  ]);
}
