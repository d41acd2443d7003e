import { stringify } from "csv-stringify/sync";
import { getDb, type AppDatabase } from "@/db/client";
import { signupRowBatches, type SignupRow, type SignupScope } from "./signups";

export const SIGNUP_CSV_COLUMNS = ["email", "verified", "referral", "custom_inputs", "created_at"] as const;

// Spreadsheet apps run a cell that starts with one of these as a formula ("CSV injection"), so
// such cells get a leading single quote, as OWASP recommends. Tab and carriage return are included
// because some apps skip them before looking for "=".
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralizeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

function toCsvRecord(row: SignupRow): string[] {
  return [row.email, String(row.verified), String(row.referral), JSON.stringify(row.customInputs), row.createdAt.toISOString()].map(neutralizeFormula);
}

/**
 * Every signup of a scope as CSV, in creation order (the API's order), with a header row. Pull-based:
 * the next batch of 1,000 rows is read only when the client has taken the previous one.
 */
export function signupCsvStream(scope: SignupScope, db: AppDatabase = getDb()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let batches: Generator<SignupRow[]> | undefined;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!batches) {
        batches = signupRowBatches(scope, 1000, db);
        controller.enqueue(encoder.encode(stringify([[...SIGNUP_CSV_COLUMNS]], { record_delimiter: "\r\n" })));
        return;
      }
      const next = batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(stringify(next.value.map(toCsvRecord), { record_delimiter: "\r\n" })));
    },
    cancel() {
      batches?.return(undefined);
    },
  });
}
