import { basename, dirname } from "node:path";
import { storageFailureOf } from "./storage-failure";

// The database file itself is unusable: damaged, in a folder SQLite cannot write its -wal and -shm
// to, impossible to open, or impossible to migrate. `npm start` and the CLI then stop with this one
// line, which names the file, says what is wrong and what to do (never a stack trace).

/** A database that cannot be opened or migrated; its message is the one line to print. */
export class DatabaseFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseFailure";
  }
}

const RESTORE = 'restore it from a backup (`npm run cli -- db backup` makes them; see the README, "Backups and restore")';

function codeOf(error: unknown): string {
  const code = error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : "";
}

/**
 * What is wrong with the database at `path` when `error` (a SqliteError) says it is damaged, cannot be
 * opened, or cannot be written (`context` then says what did not happen, such as "its pending
 * migrations were not applied"); undefined for any other error.
 */
export function databaseFailureMessage(error: unknown, path: string, context?: string): string | undefined {
  const code = codeOf(error);
  const folder = dirname(path);
  const name = basename(path);
  if (code === "SQLITE_NOTADB") return `${path} is not a SQLite database, or its first page is damaged: ${RESTORE}, or set DATABASE_PATH to the right file`;
  if (code.startsWith("SQLITE_CORRUPT")) return damagedDatabaseMessage(path, "SQLite found a corrupt page");
  if (code === "SQLITE_READONLY_DIRECTORY") {
    return `${path} cannot be used: its folder ${folder} is read-only, and SQLite must create ${name}-wal and ${name}-shm in it; let the user running the app write to that folder`;
  }
  if (code.startsWith("SQLITE_CANTOPEN")) {
    return `${path} cannot be opened: check that it exists (or that its folder ${folder} can be written, to create it) and that the user running the app may read and write both`;
  }
  if (code === "SQLITE_IOERR_SHMSIZE" || code === "SQLITE_IOERR_SHMOPEN") {
    return `${path} cannot be opened: SQLite cannot create its shared-memory file ${name}-shm (is the disk of ${folder} full?); free some space on it`;
  }
  const storageFailure = storageFailureOf(error);
  if (storageFailure) return `${path}${context ? `: ${context}` : ""}: ${storageFailure.message}`;
  return undefined;
}

/** The line for a database found damaged (`detail`: what found it, and what it found). */
export function damagedDatabaseMessage(path: string, detail: string): string {
  return `${path} is damaged (${detail}): ${RESTORE}`;
}

/** `error` as a DatabaseFailure when databaseFailureMessage words it, else `error` itself. */
export function asDatabaseFailure(error: unknown, path: string, context?: string): unknown {
  const message = databaseFailureMessage(error, path, context);
  return message === undefined ? error : new DatabaseFailure(message, { cause: error });
}
