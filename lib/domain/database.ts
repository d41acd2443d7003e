import { existsSync } from "node:fs";
import { openDatabase, openReadOnlyDatabase, type AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { withoutPassword } from "@/lib/core/database-url";
import type { Env } from "@/lib/core/env";
import { asDatabaseFailure, damagedDatabaseMessage, DatabaseFailure } from "@/lib/core/database-failure";
import { storageFailureMessage, type StorageFailure } from "@/lib/core/storage-failure";
import { writeRefusal } from "@/lib/sqlite/write-probe";

/** How many of the problems PRAGMA quick_check finds the one line names. */
const PROBLEMS_SHOWN = 3;

/** The database the environment names, as messages name it: SQLite's file, or PostgreSQL's server without its password. */
export function databaseLocation(config: Pick<Env, "DATABASE_PATH" | "DATABASE_URL">): string {
  return config.DATABASE_URL ? withoutPassword(config.DATABASE_URL) : config.DATABASE_PATH;
}

/**
 * Creates the database file when missing (on PostgreSQL, the tables) and applies its pending
 * migrations, then closes it. `npm start` runs it once before it serves (with several workers, in
 * the primary before any of them starts), so that a failing migration stops the start and workers
 * only ever open an up-to-date database. A file it cannot use throws a DatabaseFailure
 * (lib/core/database-failure.ts); an up-to-date database that cannot be written (a read-only file, a
 * PostgreSQL standby) is served for reading: it returns why.
 */
export async function migrateDatabase(config: Pick<Env, "DATABASE_PATH" | "DATABASE_URL">): Promise<StorageFailure | undefined> {
  if (config.DATABASE_URL) return await migratePostgres(config.DATABASE_URL);
  const db = openDatabase(config.DATABASE_PATH);
  try {
    return await writeRefusal(db);
  } finally {
    db.$client.close();
  }
}

async function migratePostgres(url: string): Promise<StorageFailure | undefined> {
  let db: AppDatabase;
  try {
    db = await openPostgres(url);
  } catch (error) {
    throw new DatabaseFailure(`PostgreSQL at ${withoutPassword(url)} (DATABASE_URL) cannot be used: ${(error as Error).message}`, { cause: error });
  }
  try {
    const { transaction_read_only: readOnly } = (await db.$engine.prepare("SHOW transaction_read_only").get<{ transaction_read_only: string }>([]))!;
    return readOnly === "on" ? { cause: "read-only", message: storageFailureMessage("read-only") } : undefined;
  } finally {
    await db.$engine.close();
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
