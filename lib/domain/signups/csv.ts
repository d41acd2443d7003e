import { stringify } from "csv-stringify/sync";
import { getDb, type AppDatabase } from "@/db/client";
import { signupRowBatches, type SignupRow } from "./queries";
import { type SignupScope } from "./filter";

export const SIGNUP_CSV_COLUMNS = ["email", "verified", "referral", "custom_inputs", "created_at"] as const;

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

function toCsvRecord(row: SignupRow): string[] {
  return [row.email, String(row.verified), String(row.referral), JSON.stringify(row.customInputs), row.createdAt.toISOString()].map(neutralizeFormula);
}

function csvText(records: string[][]): string {
  return stringify(records, { record_delimiter: "\r\n" });
}

/** Signups as CSV texts: the header row, then one text per batch of rows. */
export function* signupCsvChunks(batches: Iterable<SignupRow[]>): Generator<string> {
  yield csvText([[...SIGNUP_CSV_COLUMNS]]);
  for (const batch of batches) yield csvText(batch.map(toCsvRecord));
}

/** Resolves after the event loop has handled the I/O that is waiting (other requests). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Every signup of a scope as CSV, in creation order (the API's order), with a header row. Pull-based:
 * the next batch of 1,000 rows is read only when the client has taken the previous one, and never
 * in the same turn of the event loop: when the socket takes every write at once (a fast client on a
 * fast link), the pulls would otherwise chain without end and no other request would be served
 * until the whole export was sent (seconds on a large list).
 */
export function signupCsvStream(scope: SignupScope, db: AppDatabase = getDb()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let chunks: Generator<string> | undefined;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!chunks) {
        chunks = signupCsvChunks(signupRowBatches(scope, 1000, db));
        controller.enqueue(encoder.encode(chunks.next().value as string));
        return;
      }
      await nextTurn();
      if (cancelled) return;
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    cancel() {
      cancelled = true;
      chunks?.return(undefined);
    },
  });
}
