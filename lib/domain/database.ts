import { existsSync } from "node:fs";
import { openDatabase, openReadOnlyDatabase, type AppDatabase } from "@/db/client";
import { asDatabaseFailure, damagedDatabaseMessage, DatabaseFailure } from "@/lib/core/database-failure";
import type { StorageFailure } from "@/lib/core/storage-failure";
import { writeRefusal } from "@/lib/sqlite/write-probe";

/** How many of the problems PRAGMA quick_check finds the one line names. */
const PROBLEMS_SHOWN = 3;

/**
 * Creates the database file when missing and applies its pending migrations, then closes it.
 * `npm start` runs it once before it serves (with several workers, in the primary before any of
 * them starts), so that a failing migration stops the start and workers only ever open an
 * up-to-date file. A file it cannot use throws a DatabaseFailure (lib/core/database-failure.ts);
 * an up-to-date file that cannot be written (read-only) is served for reading: it returns why.
 */
export async function migrateDatabase(path: string): Promise<StorageFailure | undefined> {
  const db = openDatabase(path);
  try {
    return await writeRefusal(db);
  } finally {
    db.$client.close();
  }
}

/**
 * Checks the structure of every page of the database at `path` (PRAGMA quick_check: damage anywhere in
 * the file, which reads would meet only on the damaged page) on a read-only connection that neither
 * creates nor migrates it. Throws a DatabaseFailure that names the file and the first problems.
 */
export function checkDatabase(path: string): void {
  let db: AppDatabase | undefined;
  try {
    db = openReadOnlyDatabase(path);
    // Its first problem starts with a header line of its own, "*** in database main ***".
    const problems = (db.$client.pragma(`quick_check(${PROBLEMS_SHOWN})`) as { quick_check: string }[]).map((row) => row.quick_check.replace(/^\*\*\* .* \*\*\*\s*/, ""));
    if (problems.length === 1 && problems[0] === "ok") return;
    throw new DatabaseFailure(damagedDatabaseMessage(path, `PRAGMA quick_check: ${problems.join("; ")}`));
  } catch (error) {
    throw asDatabaseFailure(error, path);
  } finally {
    db?.$client.close();
  }
}

/** checkDatabase, when the file exists (migrating creates a missing one). */
export function checkDatabaseIfPresent(path: string): void {
  if (existsSync(path)) checkDatabase(path);
}
