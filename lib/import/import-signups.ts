import { closeSync, fstatSync, openSync } from "node:fs";
import { getDb, type AppDatabase } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { CLI_ACTOR, recordAudit, type AuditActor } from "@/lib/domain/audit/log";
import { appendEvent } from "@/lib/domain/events";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { writeTransaction } from "@/lib/store/transaction";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { formatOf, type ImportFormat } from "./formats";
import { readFileRecords } from "./read-file";
import { latestCreatedAt, type ImportRecord } from "./row";

/** How many invalid rows an aborted import names. */
export const MAX_REPORTED_ERRORS = 10;

/** "deriving": every row is read and inserted; the counts, facets and search entries are being built. */
export type ImportPhase = "validating" | "importing" | "deriving";

interface ImportOptions {
  waitlistId: string;
  /** The cell delimiter of a CSV file, one character (default ","). */
  delimiter?: string;
  /** Called now and then with the bytes read so far of the file, and the records read so far in this phase. */
  onProgress?: (phase: ImportPhase, bytesRead: number, totalBytes: number, records: number) => void;
  /** Who imports, for the audit log (default: the CLI). */
  actor?: AuditActor;
  /** created_at of every row without one (ties keep file order through the row id); a day after it is the latest created_at accepted. */
  now?: Date;
  /** Stops the import between two batches: it rolls back and throws the signal's reason. */
  signal?: AbortSignal;
}

/**
 * The file to import: a path (the CLI), or a descriptor of this process that the caller keeps open
 * and closes, with the file's format (an upload, whose file has no name any more: see
 * lib/dashboard/upload-file.ts). Every pass reads it from its start with positional reads.
 */
export type ImportInput = ImportOptions & ({ path: string } | { fd: number; format: ImportFormat });

export interface ImportResult {
  imported: number;
  skipped_duplicates: number;
}

interface OpenFile {
  fd: number;
  size: number;
  close(): void;
}

function openPath(path: string): OpenFile {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new AppError("invalid_parameter", `${path} is not a file`, "file");
    const opened = fd;
    return { fd: opened, size: stats.size, close: () => closeSync(opened) };
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    if (error instanceof AppError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new AppError("invalid_parameter", code === "ENOENT" ? `no such file: ${path}` : `cannot read ${path}: ${(error as Error).message}`, "file");
  }
}

function openFile(input: ImportInput): OpenFile {
  if ("path" in input) return openPath(input.path);
  return { fd: input.fd, size: fstatSync(input.fd).size, close: () => {} };
}

interface Pass {
  format: ImportFormat;
  phase: ImportPhase;
  total: number;
  /** The import's time, epoch ms. */
  now: number;
  exactLines?: boolean;
}

async function* records(input: ImportInput, fd: number, { format, phase, total, now, exactLines = false }: Pass): AsyncGenerator<ImportRecord[]> {
  let reported = 0;
  let count = 0;
  for await (const { records: batch, bytesRead } of readFileRecords(format, fd, total, { exactLines, delimiter: input.delimiter, latestCreatedAt: latestCreatedAt(now) })) {
    input.signal?.throwIfAborted();
    yield batch;
    count += batch.length;
    if (input.onProgress && bytesRead - reported >= 1 << 20) {
      reported = bytesRead;
      input.onProgress(phase, reported, total, count);
    }
  }
  input.onProgress?.(phase, total, total, count);
}

async function validate(input: ImportInput, fd: number, pass: Pass) {
  const errors: string[] = [];
  let invalid = 0;
  for await (const batch of records(input, fd, pass)) {
    for (const record of batch) {
      if (record.error === undefined) continue;
      invalid++;
      if (errors.length < MAX_REPORTED_ERRORS) errors.push(`line ${record.line}: ${record.error}`);
    }
  }
  return { invalid, errors };
}

/** An import refused for invalid rows: nothing was written. `errors` are the first ten, "line N: …". */
export class InvalidImportFileError extends AppError {
  constructor(
    readonly invalid: number,
    readonly errors: string[],
  ) {
    const more = invalid > errors.length ? `; and ${invalid - errors.length} more` : "";
    const rows = invalid === 1 ? "1 invalid row" : `${invalid} invalid rows`;
    super("invalid_parameter", `${rows}, nothing imported: ${errors.join("; ")}${more}`, "file");
  }
}

/**
 * Imports a CSV, JSON or NDJSON file of signups into one waitlist, all or nothing: one pass
 * validates and inserts every row inside one transaction, skipping emails already in the waitlist
 * or repeated in the file; the first invalid row stops the inserting, the pass goes on validating,
 * and the transaction is rolled back, so nothing is written. Only a file with errors is read again,
 * to name exact line numbers. Memory stays flat whatever the file size. A row keeps the created_at
 * it gives; the others get the import's time.
 */
export async function importSignups(input: ImportInput, db: AppDatabase = getDb()): Promise<ImportResult> {
  const waitlist = await getWaitlistOrThrow(input.waitlistId, db);
  const format = "path" in input ? formatOf(input.path) : input.format;
  if (input.delimiter !== undefined && format !== "csv") throw new AppError("invalid_parameter", "--delimiter applies to .csv files only", "delimiter");
  const file = openFile(input);
  try {
    return await importFile(input, waitlist.id, format, file, db);
  } finally {
    file.close();
  }
}

async function importFile(input: ImportInput, waitlistId: string, format: ImportFormat, { fd, size: total }: OpenFile, db: AppDatabase): Promise<ImportResult> {
  const now = (input.now ?? new Date()).getTime();
  const result: ImportResult = { imported: 0, skipped_duplicates: 0 };
  let invalid = 0;
  // A file with an invalid row writes nothing: its transaction is undone (and the file read again for the report).
  const NOTHING_WRITTEN = new Error("invalid rows: nothing written");
  try {
    await writeTransaction(db, async () => {
      const bulk = startBulkInsert(waitlistId, db);
      for await (const batch of records(input, fd, { format, phase: "importing", total, now })) {
        const valid: NewSignup[] = [];
        for (const record of batch) {
          if (record.error !== undefined) invalid++;
          else if (invalid === 0) valid.push(record.row);
        }
        if (invalid > 0) continue;
        const inserted = await bulk.add(valid, now);
        result.imported += inserted;
        result.skipped_duplicates += valid.length - inserted;
      }
      if (invalid > 0) throw NOTHING_WRITTEN;
      input.onProgress?.("deriving", total, total, result.imported + result.skipped_duplicates);
      await bulk.finish();
      const summary = `imported ${result.imported} signups, skipped ${result.skipped_duplicates} duplicates (a ${format.toUpperCase()} file)`;
      await recordAudit({ actor: input.actor ?? CLI_ACTOR, action: "signups.import", target: waitlistId, summary }, db);
      await appendEvent({ type: "signups.imported", waitlistId, payload: { imported: result.imported, skipped_duplicates: result.skipped_duplicates, format } }, db);
    });
  } catch (error) {
    if (error !== NOTHING_WRITTEN) throw error;
  }
  if (invalid > 0) {
    const report = await validate(input, fd, { format, phase: "validating", total, now, exactLines: true });
    throw new InvalidImportFileError(report.invalid, report.errors);
  }
  return result;
}
