import { getDb, type AppDatabase } from "@/db/client";
import type { Position } from "@/lib/store/keyset";
import { signupTextPage, type SignupTextRow } from "./queries";
import type { SignupRow } from "./row";
import { type SignupScope } from "./filter";
import { topInputLabels } from "./facets";
import { IMPORT_FIELDS } from "./import-columns";

/** The export's columns: exactly the fields an import reads, so that an export imports back as it was. */
export const SIGNUP_CSV_COLUMNS = IMPORT_FIELDS;

// Spreadsheet apps run a cell that starts with one of these as a formula ("CSV injection"), so
// such cells get a leading single quote, as OWASP recommends. Tab and carriage return are included
// because some apps skip them before looking for "=". A cell that already starts with a quote gets
// one more, so that the import can take exactly one off and get every cell back as it was.
const NEUTRALIZED_START = /^[=+\-@\t\r']/;
const NEUTRALIZED = /^'[=+\-@\t\r']/;

export function neutralizeFormula(cell: string): string {
  return NEUTRALIZED_START.test(cell) ? `'${cell}` : cell;
}

/** The inverse of neutralizeFormula: `'=1+1` → `=1+1`, `''x` → `'x`; any other cell as it is. */
export function restoreNeutralized(cell: string): string {
  return NEUTRALIZED.test(cell) ? cell.slice(1) : cell;
}

/**
 * A cell as csv-stringify writes it with `record_delimiter: "\r\n"` (what the import's csv-parse
 * reads; a unit test holds the two together): quoted, with its quotes doubled, when it holds a
 * quote, a comma or CRLF. Written out because csv-stringify took about 30 % of an export's CPU
 * (tests/bench/README.md) and allocates a record per row.
 */
function csvCell(text: string): string {
  const cell = neutralizeFormula(text);
  if (!cell.includes('"') && !cell.includes(",") && !cell.includes("\r\n")) return cell;
  return `"${cell.replaceAll('"', '""')}"`;
}

/**
 * The answers that get a column of their own (`--columns inputs`, the dashboard's "Answers in
 * columns"): labels in the header after the signup fields; each signup's first `{label, value}` entry
 * of such a label fills its cell, and everything else stays in custom_inputs, so that the file still
 * imports back (the import reads an extra column as answers of that label, lib/import/row.ts). Empty:
 * the default layout, the answers as one JSON column.
 */
export type InputColumns = readonly string[];

/** At most this many answers get columns of their own, the most common labels first. */
export const MAX_INPUT_COLUMNS = 50;

/**
 * The labels of a waitlist's answers that can be columns of their own: the most common (short ones,
 * as the facets count them), except those an import would read otherwise (a signup field's name,
 * or a label with spaces around it, which the import trims).
 */
export async function inputColumnsOf(waitlistId: string, db: AppDatabase = getDb()): Promise<InputColumns> {
  const fields: readonly string[] = IMPORT_FIELDS;
  return (await topInputLabels(waitlistId, MAX_INPUT_COLUMNS, db))
    .map(({ label }) => label)
    .filter((label) => label !== "" && label.trim() === label && !fields.includes(label.toLowerCase()));
}

function header(inputColumns: InputColumns): string {
  return `${[...SIGNUP_CSV_COLUMNS, ...inputColumns].map(csvCell).join(",")}\r\n`;
}

type Scalar = string | number | boolean;

/** The custom_inputs cell, and the answer columns' cells (each after a comma), of one signup's inputs. */
function inputCells(inputs: unknown, inputColumns: InputColumns): [json: string, columns: string] {
  if (inputColumns.length === 0) return [csvCell(JSON.stringify(inputs)), ""];
  const cells = new Map<string, Scalar>();
  const rest: unknown[] = [];
  for (const input of Array.isArray(inputs) ? inputs : []) {
    const { label, value } = (input ?? {}) as { label?: unknown; value?: unknown };
    const scalar = typeof value === "string" || typeof value === "number" || typeof value === "boolean";
    if (typeof label === "string" && scalar && inputColumns.includes(label) && !cells.has(label)) cells.set(label, value);
    else rest.push(input);
  }
  let columns = "";
  for (const label of inputColumns) columns += `,${cells.has(label) ? csvCell(String(cells.get(label))) : ""}`;
  return [csvCell(JSON.stringify(rest)), columns];
}

/** One CSV record, with its CRLF; `inputs` the parsed custom inputs, `createdAt` ISO 8601 (UTC, ms). */
function csvRecord(email: string, verified: boolean, referral: boolean, inputs: unknown, createdAt: string, status: string, statusChangedAt: string, inputColumns: InputColumns): string {
  const [json, columns] = inputCells(inputs, inputColumns);
  return `${csvCell(email)},${csvCell(String(verified))},${csvCell(String(referral))},${json},${csvCell(createdAt)},${status},${statusChangedAt}${columns}\r\n`;
}

function rowsText(rows: readonly SignupRow[], inputColumns: InputColumns): string {
  let text = "";
  for (const row of rows) {
    text += csvRecord(row.email, row.verified, row.referral, row.customInputs, row.createdAt.toISOString(), row.status, row.statusChangedAt?.toISOString() ?? "", inputColumns);
  }
  return text;
}

function textRowsText(rows: readonly SignupTextRow[], inputColumns: InputColumns): string {
  let text = "";
  // The custom inputs go through JSON.parse and JSON.stringify, as the CLI's rows do: SQLite's json()
  // would keep a stored text's own spelling (`1.0`, `\u00e9`) and change the file in such cases.
  for (const [, , email, verified, referral, customInputs, createdAt, status, statusChangedAt] of rows) {
    text += csvRecord(email, verified === 1, referral === 1, JSON.parse(customInputs), createdAt, status, statusChangedAt ?? "", inputColumns);
  }
  return text;
}

/** Signups as CSV texts: the header row, then one text per batch of rows (the CLI's export). */
export async function* signupCsvChunks(batches: AsyncIterable<SignupRow[]>, inputColumns: InputColumns = []): AsyncGenerator<string> {
  yield header(inputColumns);
  for await (const batch of batches) yield rowsText(batch, inputColumns);
}

/** Rows read per query by the streamed export: each page becomes bytes before the next is read. */
const PAGE_ROWS = 250;
/** The streamed export hands over a chunk once it holds at least this many bytes (2 pages of typical rows). */
const CHUNK_BYTES = 64 * 1024;

/** Resolves after the event loop has handled the I/O that is waiting (other requests). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Every signup of a scope as CSV, in creation order (the API's order), with a header row.
 *
 * Memory: a chunk is made only when the reader asks for one (highWaterMark 0: nothing is read ahead
 * of a slow client), and between chunks only the position in the list is kept. Each page of rows
 * becomes bytes at once, without a Date per row (signupTextPage), so that what a chunk allocates dies
 * young: rows kept across an event-loop turn (V8 runs young-generation collections between turns)
 * are promoted and pile up in the old generation until a full collection. With read-ahead, 1,000-row
 * batches held by generators across turns and a Date per row, an export of 600,000 rows grew the
 * server's RSS by 166–191 MB; like this, by 22–31 MB (tests/bench, "CSV export").
 *
 * Fairness: a chunk is never made in the turn that handed over the previous one: when the socket
 * takes every write at once (a fast client on a fast link), the pulls would otherwise chain without
 * end and no other request would be served until the whole export was sent.
 */
export function signupCsvStream(scope: SignupScope, inputColumns: InputColumns = [], db: AppDatabase = getDb()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Position | undefined;
  let state: "first" | "more" | "done" = "first";
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (state === "more") await nextTurn();
        if (cancelled) return;
        const parts = state === "first" ? [encoder.encode(header(inputColumns))] : [];
        let bytes = parts[0]?.byteLength ?? 0;
        state = "more";
        while (bytes < CHUNK_BYTES) {
          const page = await signupTextPage(scope, after, PAGE_ROWS, db);
          const part = encoder.encode(textRowsText(page.rows, inputColumns));
          parts.push(part);
          bytes += part.byteLength;
          after = page.next;
          if (!after) {
            state = "done";
            break;
          }
        }
        if (bytes > 0) controller.enqueue(parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes));
        if (state === "done") controller.close();
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
}
