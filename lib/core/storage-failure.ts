// SQLite's answers that mean "the database cannot be written right now" rather than a bug: a lock
// held by another process, a full disk, a read-only file or folder, a failing disk. Every transport
// (the /v1 problem mapper, dashboard writes, sign-in, the CLI, imports) words them with this one
// function, so a refused write says why in one line, and as a 503 where there is a status.

export type StorageFailureCause = "busy" | "full" | "read-only" | "io";

export interface StorageFailure {
  cause: StorageFailureCause;
  /** One line that names the cause and says that nothing was changed. */
  message: string;
}

const MESSAGES: Record<StorageFailureCause, string> = {
  busy: "the database is locked by another process (an import or a backup?): nothing was changed; try again in a minute",
  full: "the database's disk is full: nothing was changed; free some space on it",
  "read-only": "the database cannot be written (a read-only file or folder; check its permissions): nothing was changed",
  io: "the database's disk failed to write (an I/O error): nothing was changed",
};

function causeOf(code: string): StorageFailureCause | undefined {
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
  if (code === "SQLITE_FULL") return "full";
  if (code.startsWith("SQLITE_READONLY")) return "read-only";
  if (code.startsWith("SQLITE_IOERR") || code.startsWith("SQLITE_CANTOPEN")) return "io";
  return undefined;
}

export function isStorageFailureCause(value: unknown): value is StorageFailureCause {
  return typeof value === "string" && Object.hasOwn(MESSAGES, value);
}

/** The message of a cause, for a page that is only told the cause (in its URL). */
export function storageFailureMessage(cause: StorageFailureCause): string {
  return MESSAGES[cause];
}

/** The storage failure `error` is (a SqliteError by its code), or undefined for anything else. */
export function storageFailureOf(error: unknown): StorageFailure | undefined {
  const code = error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
  const cause = typeof code === "string" ? causeOf(code) : undefined;
  return cause && { cause, message: MESSAGES[cause] };
}
