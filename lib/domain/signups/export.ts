import { signupCsvChunks, type InputColumns } from "./csv";
import type { SignupRow } from "./row";
import { toSignupResponse, type SignupResponse } from "./response";
import type { SignupStatus } from "./status";

// The files `signups export` writes. Each format is what `signups import` reads back: CSV exactly as
// the dashboard's export, JSON and NDJSON the API's object plus created_at, status and status_changed_at.

export const SIGNUP_EXPORT_FORMATS = ["csv", "ndjson", "json"] as const;
export type SignupExportFormat = (typeof SIGNUP_EXPORT_FORMATS)[number];

/** A signup as the JSON and NDJSON exports write it: the API object, when it was created (ISO 8601 UTC, ms), its status and when that last changed. */
export type ExportedSignup = SignupResponse & { created_at: string; status: SignupStatus; status_changed_at: string | null };

export function toExportedSignup(row: SignupRow): ExportedSignup {
  return { ...toSignupResponse(row), created_at: row.createdAt.toISOString(), status: row.status, status_changed_at: row.statusChangedAt?.toISOString() ?? null };
}

function batchJson(batch: SignupRow[], separator: string): string {
  return batch.map((row) => JSON.stringify(toExportedSignup(row))).join(separator);
}

async function* ndjsonChunks(batches: AsyncIterable<SignupRow[]>): AsyncGenerator<string> {
  for await (const batch of batches) yield `${batchJson(batch, "\n")}\n`;
}

/** One array, one element per line. */
async function* jsonArrayChunks(batches: AsyncIterable<SignupRow[]>): AsyncGenerator<string> {
  let first = true;
  yield "[";
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    yield `${first ? "\n" : ",\n"}${batchJson(batch, ",\n")}`;
    first = false;
  }
  yield first ? "]\n" : "\n]\n";
}

const CHUNKS: Record<SignupExportFormat, (batches: AsyncIterable<SignupRow[]>, inputColumns: InputColumns) => AsyncGenerator<string>> = {
  csv: signupCsvChunks,
  ndjson: ndjsonChunks,
  json: jsonArrayChunks,
};

/** Batches of signups (in the order to write) as texts to write one after the other, one per batch; `inputColumns` only for CSV (csv.ts). */
export function signupExportChunks(format: SignupExportFormat, batches: AsyncIterable<SignupRow[]>, inputColumns: InputColumns = []): AsyncGenerator<string> {
  return CHUNKS[format](batches, inputColumns);
}
