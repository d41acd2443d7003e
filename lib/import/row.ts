import "server-only";
import { z } from "zod";
import { DAY_MS } from "@/lib/core/time";
import { restoreNeutralized } from "@/lib/domain/signups/csv";
import { parseInstant } from "@/lib/core/instant";
import { unsafeCharacterIn } from "@/lib/core/single-line-text";
import { MAX_EMAIL_LENGTH } from "@/lib/domain/signups/email-address";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { IMPORT_FIELDS, type CsvLayout } from "@/lib/domain/signups/import-columns";
import { isSignupStatus, SIGNUP_STATUSES, type SignupStatus } from "@/lib/domain/signups/status";

/** One validated signup, ready to insert (without createdAt it gets the import's time). */
export type ImportRow = NewSignup;

/** A row of the file: valid, or the reason it is not. `line` is 1-based in the file. */
export type ImportRecord = { line: number; row: ImportRow; error?: undefined } | { line: number; error: string; row?: undefined };

/** Readers hand records over in arrays of about this many, to keep per-row async overhead low. */
export const BATCH_SIZE = 1000;

/**
 * The largest record (a CSV row, a JSON array element, an NDJSON line) an import accepts, so one
 * enormous record cannot exhaust memory: readers stop at a larger one without reading the rest of it.
 * JSON and NDJSON count UTF-8 bytes; CSV uses csv-parse's max_record_size, which counts the cell
 * being read in bytes and the finished cells of the row in characters.
 */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** The record that ends a file whose record starting on `line` is over MAX_RECORD_BYTES. */
export function tooLargeRecord(line: number): ImportRecord {
  const limit = `${MAX_RECORD_BYTES / (1024 * 1024)} MB`;
  return { line, error: `the record is larger than ${limit}, the most one record may have; the rest of the file was not read` };
}

const emailSchema = z.email().max(MAX_EMAIL_LENGTH);
const EMPTY_INPUTS = "[]";

/** How far past the import's time a created_at may be (clocks differ; a later date is a mistake). */
export const CREATED_AT_TOLERANCE_MS = DAY_MS;

/** The latest created_at an import started at `now` (epoch ms) accepts. */
export function latestCreatedAt(now: number): number {
  return now + CREATED_AT_TOLERANCE_MS;
}

/** What every reader checks rows against besides their own content. */
export interface RowOptions {
  /** The latest created_at accepted, epoch ms (default: a day after the reading starts). */
  latestCreatedAt?: number;
}

export function latestOf(options: RowOptions): number {
  return options.latestCreatedAt ?? latestCreatedAt(Date.now());
}

/**
 * The deepest custom_inputs may nest, its own array being level 1 and its objects level 2. SQLite's
 * JSON functions (the CHECK on signups.custom_inputs) refuse 1,000 levels, and JSON.stringify
 * overflows the stack long before 100,000.
 */
export const MAX_CUSTOM_INPUT_DEPTH = 32;

/** The most characters a custom input's label or value may have (a string's own, any other value's JSON text). */
export const MAX_CUSTOM_INPUT_CHARS = 10_000;

const numberText = new Intl.NumberFormat("en-US");

/** Whether `value` nests more than `levels` arrays and objects (a scalar nests none); looks no deeper than that. */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}

function quote(value: unknown): string {
  // Too deep to stringify safely, and only its first brackets would show anyway.
  if (nestsDeeperThan(value, MAX_CUSTOM_INPUT_DEPTH)) return Array.isArray(value) ? "[…]" : "{…}";
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Trims and checks an email; returns the error text when invalid. */
export function checkEmail(value: unknown): { email: string } | { error: string } {
  if (typeof value !== "string" || value.trim() === "") return { error: "email is missing" };
  const unsafe = unsafeCharacterIn(value);
  if (unsafe) return { error: `email contains ${unsafe} (got ${quote(value)})` };
  const email = value.trim();
  return emailSchema.safeParse(email).success ? { email } : { error: `invalid email ${quote(value)}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tooLong(what: string, chars: number): string {
  return `${what} has ${numberText.format(chars)} characters; a custom input's label or value may have at most ${numberText.format(MAX_CUSTOM_INPUT_CHARS)}`;
}

/** The first unsafe character (lib/core/single-line-text.ts) in any text of `value` (strings, and an object's keys, at any depth), or undefined. */
function unsafeCharacterInValue(value: unknown): string | undefined {
  if (typeof value === "string") return unsafeCharacterIn(value);
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = unsafeCharacterInValue(item);
      if (found) return found;
    }
    return undefined;
  }
  for (const key in value) {
    const found = unsafeCharacterIn(key) ?? unsafeCharacterInValue((value as Record<string, unknown>)[key]);
    if (found) return found;
  }
  return undefined;
}

/** The error text of one custom input (an object of custom_inputs, at `index`), or undefined. One pass, no allocation for scalars: it runs on every row. */
function customInputError(input: Record<string, unknown>, index: number): string | undefined {
  for (const label in input) {
    if (label.length > MAX_CUSTOM_INPUT_CHARS) return tooLong(`a label in custom_inputs[${index}]`, label.length);
    const value = input[label];
    let chars = 0;
    if (typeof value === "string") chars = value.length;
    else if (typeof value === "object" && value !== null) {
      // The array of custom_inputs and this object are two of the levels.
      if (nestsDeeperThan(value, MAX_CUSTOM_INPUT_DEPTH - 2)) return `custom_inputs nests more than ${MAX_CUSTOM_INPUT_DEPTH} levels of arrays and objects`;
      chars = JSON.stringify(value).length;
    }
    if (chars > MAX_CUSTOM_INPUT_CHARS) return tooLong(`the value of ${quote(label)} in custom_inputs[${index}]`, chars);
    const unsafeLabel = unsafeCharacterIn(label);
    if (unsafeLabel) return `a label in custom_inputs[${index}] contains ${unsafeLabel}: labels and values are one line of plain text`;
    const unsafe = unsafeCharacterInValue(value);
    if (unsafe) return `the value of ${quote(label)} in custom_inputs[${index}] contains ${unsafe}: labels and values are one line of plain text`;
  }
  return undefined;
}

/**
 * custom_inputs must be an array of objects, nested at most MAX_CUSTOM_INPUT_DEPTH levels, whose
 * labels (property names) and values have at most MAX_CUSTOM_INPUT_CHARS characters each; returns
 * the parsed array or the error text.
 */
export function checkCustomInputs(value: unknown): { inputs: Record<string, unknown>[] } | { error: string } {
  if (!Array.isArray(value)) return { error: `custom_inputs must be a JSON array of objects (got ${quote(value)})` };
  for (let index = 0; index < value.length; index++) {
    const input: unknown = value[index];
    if (!isPlainObject(input)) return { error: `custom_inputs[${index}] must be an object (got ${quote(input)})` };
    const error = customInputError(input, index);
    if (error) return { error };
  }
  return { inputs: value as Record<string, unknown>[] };
}

const CREATED_AT_FORMAT = "an ISO 8601 date (2026-10-01) or date-time with an offset (2026-10-01T09:30:00Z)";

/**
 * A created_at as epoch milliseconds, or the error text. A date-time without an offset is refused:
 * it would be a different instant on every machine. So is a date before 1970: exports read signups
 * from created_at 0 on (signupRowBatches), so such a signup could never be exported again.
 */
export function checkCreatedAt(value: unknown, latest: number): { createdAt: number } | { error: string } {
  const instant = typeof value === "string" ? parseInstant(value.trim()) : undefined;
  if (!instant) return { error: `created_at must be ${CREATED_AT_FORMAT} (got ${quote(value)})` };
  const createdAt = instant.getTime();
  if (createdAt < 0) return { error: `created_at must not be before 1970 (got ${quote(value)})` };
  if (createdAt > latest) return { error: `created_at is more than a day in the future (got ${quote(value)})` };
  return { createdAt };
}

/**
 * A status and when it was set (an export's columns, so that an export imports as it was): a missing
 * or empty status is `waiting`; status_changed_at, an instant as created_at takes, or empty.
 */
function checkStatus(status: unknown, changedAt: unknown, latest: number): { status?: SignupStatus; statusChangedAt?: number } | { error: string } {
  const result: { status?: SignupStatus; statusChangedAt?: number } = {};
  if (status !== undefined && status !== "") {
    if (typeof status !== "string" || !isSignupStatus(status.trim())) return { error: `status must be one of ${SIGNUP_STATUSES.join(", ")} (got ${quote(status)})` };
    result.status = status.trim() as SignupStatus;
  }
  if (changedAt !== undefined && changedAt !== "" && changedAt !== null) {
    const checked = checkCreatedAt(changedAt, latest);
    if ("error" in checked) return { error: checked.error.replace("created_at", "status_changed_at") };
    result.statusChangedAt = checked.createdAt;
  }
  return result;
}

const CSV_BOOLEANS: Record<string, boolean> = { true: true, false: false, "1": true, "0": false, yes: true, no: false, "": false };

function csvBoolean(cells: string[], index: number, field: string): boolean | { error: string } {
  if (index === -1) return false;
  const cell = cells[index] ?? "";
  const value = CSV_BOOLEANS[cell] ?? CSV_BOOLEANS[cell.trim().toLowerCase()];
  return value ?? { error: `${field} must be true/false, 1/0 or yes/no (got ${quote(cell)})` };
}

const QUOTE = 39; // '

/**
 * Validates one CSV record (cells in header order). Empty verified/referral cells mean false; an
 * empty or missing created_at means the import's time. A cell the CSV export neutralized ('=…,
 * see neutralizeFormula) gets its text back first, so that an export imports as it was.
 */
export function csvRow(layout: CsvLayout, cells: string[], latest: number): ImportRow | { error: string } {
  for (let index = 0; index < cells.length; index++) {
    if (cells[index]!.charCodeAt(0) === QUOTE) cells[index] = restoreNeutralized(cells[index]!);
  }
  const errors: string[] = [];
  const email = checkEmail(cells[layout.email]);
  if ("error" in email) errors.push(email.error);
  const verified = csvBoolean(cells, layout.verified, "verified");
  if (typeof verified !== "boolean") errors.push(verified.error);
  const referral = csvBoolean(cells, layout.referral, "referral");
  if (typeof referral !== "boolean") errors.push(referral.error);

  let customInputs = EMPTY_INPUTS;
  const cell = layout.customInputs === -1 ? "" : (cells[layout.customInputs] ?? "").trim();
  let inputs: Record<string, unknown>[] | undefined;
  if (cell !== "" && cell !== EMPTY_INPUTS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(cell);
    } catch {
      errors.push(`custom_inputs is not valid JSON (got ${quote(cell)})`);
    }
    if (parsed !== undefined) {
      const checked = checkCustomInputs(parsed);
      if ("error" in checked) errors.push(checked.error);
      else inputs = checked.inputs;
    }
  }
  const createdAtCell = layout.createdAt === -1 ? "" : (cells[layout.createdAt] ?? "");
  const createdAt = createdAtCell === "" ? undefined : checkCreatedAt(createdAtCell, latest);
  if (createdAt && "error" in createdAt) errors.push(createdAt.error);
  const status = layout.status === -1 && layout.statusChangedAt === -1 ? {} : checkStatus(cells[layout.status], cells[layout.statusChangedAt], latest);
  if ("error" in status) errors.push(status.error);
  if (errors.length > 0) return { error: errors.join("; ") };
  // Extra columns become {"label", "value"} entries; empty cells add nothing.
  for (const extra of layout.extras) {
    const value = cells[extra.index];
    if (value === undefined || value === "") continue;
    const unsafe = unsafeCharacterIn(value) ?? unsafeCharacterIn(extra.label);
    if (unsafe) return { error: `the column ${quote(extra.label)} contains ${unsafe}: custom inputs are one line of plain text` };
    (inputs ??= []).push({ label: extra.label, value });
  }
  if (inputs) customInputs = JSON.stringify(inputs);
  const row: ImportRow = { email: (email as { email: string }).email, verified: verified as boolean, referral: referral as boolean, customInputs };
  if (createdAt) row.createdAt = (createdAt as { createdAt: number }).createdAt;
  Object.assign(row, status);
  return row;
}

function jsonBoolean(value: unknown, field: string): boolean | { error: string } {
  if (value === undefined) return false;
  if (typeof value === "boolean") return value;
  return { error: `${field} must be true or false (got ${quote(value)})` };
}

/** Validates one JSON / NDJSON signup object. Missing verified/referral mean false, a missing created_at the import's time. */
export function objectRow(value: unknown, latest: number): ImportRow | { error: string } {
  if (!isPlainObject(value)) return { error: `expected a signup object (got ${quote(value)})` };
  const errors: string[] = [];
  const unknown = Object.keys(value).filter((key) => !(IMPORT_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) errors.push(`unknown field${unknown.length > 1 ? "s" : ""} ${unknown.map((key) => `"${key}"`).join(", ")}`);
  const email = checkEmail(value.email);
  if ("error" in email) errors.push(email.error);
  const verified = jsonBoolean(value.verified, "verified");
  if (typeof verified !== "boolean") errors.push(verified.error);
  const referral = jsonBoolean(value.referral, "referral");
  if (typeof referral !== "boolean") errors.push(referral.error);
  let customInputs = EMPTY_INPUTS;
  if (value.custom_inputs !== undefined) {
    const checked = checkCustomInputs(value.custom_inputs);
    if ("error" in checked) errors.push(checked.error);
    else if (checked.inputs.length > 0) customInputs = JSON.stringify(checked.inputs);
  }
  const createdAt = value.created_at === undefined ? undefined : checkCreatedAt(value.created_at, latest);
  if (createdAt && "error" in createdAt) errors.push(createdAt.error);
  const status = value.status === undefined && value.status_changed_at === undefined ? {} : checkStatus(value.status, value.status_changed_at, latest);
  if ("error" in status) errors.push(status.error);
  if (errors.length > 0) return { error: errors.join("; ") };
  const row: ImportRow = { email: (email as { email: string }).email, verified: verified as boolean, referral: referral as boolean, customInputs };
  if (createdAt) row.createdAt = (createdAt as { createdAt: number }).createdAt;
  Object.assign(row, status);
  return row;
}

export function toRecord(line: number, result: ImportRow | { error: string }): ImportRecord {
  return "error" in result ? { line, error: result.error } : { line, row: result };
}

/** One JSON text (an array element or an NDJSON line) as a validated record. */
export function jsonRecord(line: number, text: string, latest: number): ImportRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, error: `invalid JSON: ${(error as Error).message}` };
  }
  return toRecord(line, objectRow(value, latest));
}
