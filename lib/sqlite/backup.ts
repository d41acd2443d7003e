import { renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { getDb, type AppDatabase } from "@/db/client";
import { keySourceOf } from "@/db/master-key";
import { damagedDatabaseMessage, DatabaseFailure } from "@/lib/core/database-failure";
import { AppError } from "@/lib/core/errors";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { partialPathOf, prepareBackupDestination, removeDeadPartials } from "@/lib/sqlite/backup-destination";

export interface BackupInput {
  /** Where to write the copy. */
  destination: string;
  /** Replace an existing file at `destination`. */
  force?: boolean;
}

export interface BackupResult {
  path: string;
  bytes: number;
  pages: number;
  waitlists: number;
  signups: number;
  /**
   * Where the key of the secrets is (SECRETS_KEY or the key file): never in the copy, which holds
   * the secrets encrypted (db/sealed-secret.ts). A restore needs the copy and that key.
   */
  secrets_key_not_included: string;
}

/** What a backup tells the operator about the key it does not hold. */
export function backupKeyNote(source: string): string {
  return (
    `The copy holds the webhook secrets and signing keys encrypted; their key is not in it (${source}). ` +
    "Keep that key safe and apart from the backups (a password manager or a secrets store): a restore needs both, and without the key webhook secrets must be re-issued and links sent before are invalid."
  );
}

/**
 * A consistent copy of the database while the app keeps serving, with SQLite's online backup API.
 * All pages are copied in one step, inside one read transaction: with WAL, writers carry on
 * meanwhile, and the copy is the database as of that transaction's start (copied in small steps,
 * the backup would restart after every write by another process and might never finish). The copy
 * is written next to the destination (partialPathOf; the partial files of killed backups there are
 * removed first), switched to a rollback journal (one self-contained file), and renamed into place only
 * once it passed `PRAGMA integrity_check`, so the destination is never a half-written file. The
 * destination is never the database or one of its -wal/-shm/-journal files. A destination that cannot
 * be written (its disk full, its folder read-only) is named in the error.
 */
export async function backupDatabase(input: BackupInput, db: AppDatabase = getDb()): Promise<BackupResult> {
  const path = prepareBackupDestination(input.destination, db.$client.name, input.force);
  removeDeadPartials(dirname(path));
  const partial = partialPathOf(path);
  try {
    const { totalPages } = await db.$client.backup(partial, { progress: ({ remainingPages }) => remainingPages });
    const copy = new Database(partial);
    try {
      // One self-contained file, without -wal/-shm companions; the app switches it back to WAL when it opens it.
      copy.pragma("journal_mode = DELETE");
      const integrity = copy.pragma("integrity_check", { simple: true });
      // The copy holds the database's pages as they are: the database itself is damaged.
      if (integrity !== "ok") throw new DatabaseFailure(damagedDatabaseMessage(db.$client.name, `its copy failed PRAGMA integrity_check: ${String(integrity)}`));
      // Raw: a bare connection to the copy, not the app's Drizzle one, asked twice and closed.
      const count = (table: string) => (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      const counts = { waitlists: count("waitlists"), signups: count("signups") };
      copy.close();
      renameSync(partial, path);
      return { path, bytes: statSync(path).size, pages: totalPages, ...counts, secrets_key_not_included: keySourceOf(db.$client.name) };
    } finally {
      if (copy.open) copy.close();
    }
  } catch (error) {
    throw destinationFailure(error, dirname(path)) ?? error;
  } finally {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(partial + suffix, { force: true });
  }
}

/** A storage failure while the copy is written: the destination's, never the live database's (only read). */
function destinationFailure(error: unknown, folder: string): AppError | undefined {
  const failure = storageFailureOf(error);
  if (!failure) return undefined;
  // SQLite cannot open (create) the copy: the folder exists (prepareBackupDestination made it), so it is not writable.
  const cause = (error as { code: string }).code.startsWith("SQLITE_CANTOPEN") ? "read-only" : failure.cause;
  const why = {
    full: `the disk of the backup's destination (${folder}) is full`,
    "read-only": `the backup's destination folder ${folder} cannot be written (check its permissions)`,
    io: `writing to the backup's destination (${folder}) failed with an I/O error`,
    busy: `the copy in ${folder} was locked by another process`,
    // A file's copy never meets a database server; the cause is worded for completeness.
    unreachable: "the database could not be reached",
  }[cause];
  return new AppError("unavailable", `${why}: no backup was written, and the database was not changed`);
}
