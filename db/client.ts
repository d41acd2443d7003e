import "server-only";
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { checkpointsLeftToLitestream } from "@/lib/core/continuous-backup";
import { asDatabaseFailure, DatabaseFailure } from "@/lib/core/database-failure";
import { env } from "@/lib/core/env";
import { applyMigrations } from "./migrate";
import { sealSecretsAtRest } from "./seal-at-rest";
import { overConnection, type AppDatabase } from "./app-database";
import { connectPostgres } from "./pg/client";

export type { AppDatabase } from "./app-database";

const defaultMigrationsFolder = join(process.cwd(), "db", "migrations");

/** How long a connection waits for a lock another process holds before SQLite gives up (SQLITE_BUSY). */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * What the -wal is cut back to once a checkpoint has copied it all into the database: without it, the
 * -wal keeps the size of the largest transaction ever written (~300 MB after a 600,000-row import).
 */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Makes the database file readable by its owner only: a new one is created empty with mode 0600
 * (SQLite takes an empty file for a new database), and SQLite gives its -wal, -shm and -journal the
 * mode of the database file. An existing file of this user's that others may read loses those bits.
 */
function ownerOnly(path: string): void {
  try {
    closeSync(openSync(path, "wx", 0o600));
    return;
  } catch (error) {
    // SQLite says why it cannot create the file, in the words every caller knows (asDatabaseFailure).
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return;
  }
  const { mode, uid } = statSync(path);
  if (uid === process.getuid?.() && (mode & 0o077) !== 0) {
    for (const each of [path, `${path}-wal`, `${path}-shm`]) {
      try {
        chmodSync(each, mode & 0o700);
      } catch {
        // A companion that is not there (or a file on a system without modes): nothing to tighten.
      }
    }
  }
}

/**
 * Opens (creating when missing) a SQLite file with WAL, a busy timeout and foreign keys, and
 * applies pending migrations (see applyMigrations). Safe to call on an up-to-date file, and from
 * several processes at once. A failed open closes its connection; a damaged file, or one that cannot
 * be opened or migrated, fails with a DatabaseFailure that names it and says what to do.
 */
export function openDatabase(path: string, migrationsFolder = defaultMigrationsFolder): AppDatabase {
  let sqlite: Database.Database;
  try {
    if (path !== ":memory:") {
      mkdirSync(dirname(path), { recursive: true });
      ownerOnly(path);
    }
    sqlite = new Database(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall === "mkdir") throw new DatabaseFailure(`${path} cannot be created: ${(error as Error).message}`, { cause: error });
    throw asDatabaseFailure(error, path);
  }
  let migrating = false;
  try {
    // First: switching a new file to WAL needs a lock another process may hold for a moment.
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const journalMode = sqlite.pragma("journal_mode = WAL", { simple: true });
    if (path !== ":memory:" && journalMode !== "wal") throw new Error(`${path}: could not switch to WAL mode (journal_mode is ${String(journalMode)})`);
    // With WAL, NORMAL is durable across application crashes; only a power cut can lose the last commits.
    sqlite.pragma("synchronous = NORMAL");
    // Statement journals in memory: with a trigger on signups (signup_counts) every inserted row opens
    // one, and past 64 KB SQLite spills it to a temporary file, which made a bulk import 3× slower.
    sqlite.pragma("temp_store = MEMORY");
    // Deleted rows are overwritten with zeros, not just unlinked, so an erased signup (or a deleted
    // waitlist's) cannot be read back from the file's free space. Costs writes only on deletes.
    sqlite.pragma("secure_delete = ON");
    // With continuous backup, Litestream's checkpoints only (lib/core/continuous-backup.ts), and the WAL
    // never cut back: a writer that restarts the WAL after Litestream's checkpoint cuts it at its first
    // commit, and with it the frames committed since Litestream's last copy, which the replica then lacks.
    if (checkpointsLeftToLitestream()) sqlite.pragma("wal_autocheckpoint = 0");
    else sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    // Off while migrating (better-sqlite3 turns them on by default), on for everything after.
    sqlite.pragma("foreign_keys = OFF");
    migrating = true;
    applyMigrations(sqlite, migrationsFolder);
    migrating = false;
    sealSecretsAtRest(sqlite);
    sqlite.pragma("foreign_keys = ON");
  } catch (error) {
    sqlite.close();
    throw asDatabaseFailure(error, path, migrating ? "its pending migrations were not applied" : undefined);
  }
  return overConnection(sqlite);
}

// Next.js may evaluate this module once per route bundle: keep one connection per process.
const holder = globalThis as typeof globalThis & { __waitlistDb?: AppDatabase };

/** The app's database, opened on first use (so `next build` never creates one): PostgreSQL with DATABASE_URL, else SQLite's file at DATABASE_PATH. */
export function getDb(): AppDatabase {
  const { DATABASE_URL, DATABASE_PATH } = env();
  holder.__waitlistDb ??= DATABASE_URL ? connectPostgres(DATABASE_URL) : openDatabase(DATABASE_PATH);
  return holder.__waitlistDb;
}

/** Closes the app's database, if it was opened (a command that ends: a PostgreSQL pool would keep the process alive). */
export async function closeDb(): Promise<void> {
  const db = holder.__waitlistDb;
  holder.__waitlistDb = undefined;
  await db?.$engine.close();
}

/**
 * A read-only connection to an existing, already migrated file (the dashboard's reader threads):
 * it never migrates, never writes, and never blocks a writer (WAL readers read a snapshot).
 */
export function openReadOnlyDatabase(path: string): AppDatabase {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return overConnection(sqlite);
}
