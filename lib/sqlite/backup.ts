import { renameSync, rmSync, statSync } from "node:fs";
import Database from "better-sqlite3";
import { getDb, type AppDatabase } from "@/db/client";
import { prepareBackupDestination } from "@/lib/sqlite/backup-destination";

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
}

/**
 * A consistent copy of the database while the app keeps serving, with SQLite's online backup API.
 * All pages are copied in one step, inside one read transaction: with WAL, writers carry on
 * meanwhile, and the copy is the database as of that transaction's start (copied in small steps,
 * the backup would restart after every write by another process and might never finish). The copy
 * is written next to the destination, switched to a rollback journal (one self-contained file), and
 * renamed into place only once it passed `PRAGMA integrity_check`, so the destination is never a
 * half-written file. The destination is never the database or one of its -wal/-shm/-journal files.
 */
export async function backupDatabase(input: BackupInput, db: AppDatabase = getDb()): Promise<BackupResult> {
  const path = prepareBackupDestination(input.destination, db.$client.name, input.force);
  const partial = `${path}.partial-${process.pid}`;
  try {
    const { totalPages } = await db.$client.backup(partial, { progress: ({ remainingPages }) => remainingPages });
    const copy = new Database(partial);
    try {
      // One self-contained file, without -wal/-shm companions; the app switches it back to WAL when it opens it.
      copy.pragma("journal_mode = DELETE");
      const integrity = copy.pragma("integrity_check", { simple: true });
      if (integrity !== "ok") throw new Error(`the copy failed its integrity check: ${String(integrity)}`);
      // Raw: a bare connection to the copy, not the app's Drizzle one, asked twice and closed.
      const count = (table: string) => (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      const counts = { waitlists: count("waitlists"), signups: count("signups") };
      copy.close();
      renameSync(partial, path);
      return { path, bytes: statSync(path).size, pages: totalPages, ...counts };
    } finally {
      if (copy.open) copy.close();
    }
  } finally {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(partial + suffix, { force: true });
  }
}
