// The engine's answers that mean "the database cannot be written right now" rather than a bug: a lock
// held by another process, a full disk, a read-only file or folder (or a PostgreSQL standby), a
// failing disk, a database server out of reach (a failover under way). Every transport
// (the /v1 problem mapper, dashboard writes, sign-in, the CLI, imports) words them with this one
// function, so a refused write says why in one line, and as a 503 where there is a status.

export type StorageFailureCause = "busy" | "full" | "read-only" | "io" | "unreachable";

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
  unreachable: "the database server cannot be reached (restarting, or a failover under way): nothing was changed; try again in a minute",
};

// PostgreSQL's SQLSTATEs (and postgres.js's own codes for a lost connection) for the same causes.
const POSTGRES_CAUSES: Readonly<Record<string, StorageFailureCause>> = {
  "55P03": "busy", // lock_not_available
  "40P01": "busy", // deadlock_detected
  "57014": "busy", // query_canceled (a statement timeout)
  "53300": "busy", // too_many_connections
  "53100": "full", // disk_full
  "25006": "read-only", // read_only_sql_transaction (a standby, or default_transaction_read_only)
  "58030": "io", // io_error
  "57P01": "unreachable", // admin_shutdown
  "57P02": "unreachable", // crash_shutdown
  "57P03": "unreachable", // cannot_connect_now
  CONNECTION_CLOSED: "unreachable",
  CONNECTION_ENDED: "unreachable",
  CONNECTION_DESTROYED: "unreachable",
  CONNECT_TIMEOUT: "unreachable",
  ECONNREFUSED: "unreachable",
  ECONNRESET: "unreachable",
};

function causeOf(code: string): StorageFailureCause | undefined {
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
  if (code === "SQLITE_FULL") return "full";
  if (code.startsWith("SQLITE_READONLY")) return "read-only";
  if (code.startsWith("SQLITE_IOERR") || code.startsWith("SQLITE_CANTOPEN")) return "io";
  // Class 08: connection exceptions.
  if (/^08[0-9A-Z]{3}$/.test(code)) return "unreachable";
  return Object.hasOwn(POSTGRES_CAUSES, code) ? POSTGRES_CAUSES[code] : undefined;
}

export function isStorageFailureCause(value: unknown): value is StorageFailureCause {
  return typeof value === "string" && Object.hasOwn(MESSAGES, value);
}

/** The message of a cause, for a page that is only told the cause (in its URL). */
export function storageFailureMessage(cause: StorageFailureCause): string {
  return MESSAGES[cause];
}

/** The storage failure `error` is (by its code: SQLite's, or PostgreSQL's SQLSTATE), or undefined for anything else. */
export function storageFailureOf(error: unknown): StorageFailure | undefined {
  const code = error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
  const cause = typeof code === "string" ? causeOf(code) : undefined;
  return cause && { cause, message: MESSAGES[cause] };
}
