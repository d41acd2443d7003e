import { getDb, type AppDatabase } from "@/db/client";
import type { Position } from "@/lib/sqlite/keyset";
import { signupTextPage, type SignupTextRow } from "./queries";
import type { SignupRow } from "./row";
import { type SignupScope } from "./filter";
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

const HEADER = `${SIGNUP_CSV_COLUMNS.join(",")}\r\n`;

/** One CSV record, with its CRLF; `customInputs` is the JSON text, `createdAt` ISO 8601 (UTC, ms). */
function csvRecord(email: string, verified: boolean, referral: boolean, customInputs: string, createdAt: string, status: string, statusChangedAt: string): string {
  return `${csvCell(email)},${csvCell(String(verified))},${csvCell(String(referral))},${csvCell(customInputs)},${csvCell(createdAt)},${status},${statusChangedAt}\r\n`;
}

function rowsText(rows: readonly SignupRow[]): string {
  let text = "";
  for (const row of rows) {
    text += csvRecord(row.email, row.verified, row.referral, JSON.stringify(row.customInputs), row.createdAt.toISOString(), row.status, row.statusChangedAt?.toISOString() ?? "");
  }
  return text;
}

function textRowsText(rows: readonly SignupTextRow[]): string {
  let text = "";
  // The custom inputs go through JSON.parse and JSON.stringify, as the CLI's rows do: SQLite's json()
  // would keep a stored text's own spelling (`1.0`, `\u00e9`) and change the file in such cases.
  for (const [, , email, verified, referral, customInputs, createdAt, status, statusChangedAt] of rows) {
    text += csvRecord(email, verified === 1, referral === 1, JSON.stringify(JSON.parse(customInputs)), createdAt, status, statusChangedAt ?? "");
  }
  return text;
}

/** Signups as CSV texts: the header row, then one text per batch of rows (the CLI's export). */
export function* signupCsvChunks(batches: Iterable<SignupRow[]>): Generator<string> {
  yield HEADER;
  for (const batch of batches) yield rowsText(batch);
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
export function signupCsvStream(scope: SignupScope, db: AppDatabase = getDb()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Position | undefined;
  let state: "first" | "more" | "done" = "first";
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (state === "more") await nextTurn();
        if (cancelled) return;
        const parts = state === "first" ? [encoder.encode(HEADER)] : [];
        let bytes = parts[0]?.byteLength ?? 0;
        state = "more";
        while (bytes < CHUNK_BYTES) {
          const page = signupTextPage(scope, after, PAGE_ROWS, db);
          const part = encoder.encode(textRowsText(page.rows));
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
