/** How a statement's rows come back: arrays or objects of parsed values, or arrays of each column's UTF-8 text (Uint8Array, or null). */
export type PgRowMode = "arrays" | "objects" | "bytes";

/** One PostgreSQL connection, as the engine (./engine.ts) uses it. */
export interface PgConnection {
  /**
   * One statement with values for its `$1`, `$2`, …: its rows (as arrays, as objects, or as arrays of
   * each column's text as the server sent it, `bytes`) and the rows it counted or changed.
   */
  query(text: string, params: readonly unknown[], rows: PgRowMode): Promise<{ rows: unknown[]; count: number }>;
  /** Statements without values (BEGIN, a lock, a savepoint, a migration file), as one text. */
  exec(text: string): Promise<void>;
}

/**
 * A PostgreSQL client: statements outside a transaction go to any of its connections; a transaction
 * gets one of its own. A driver with a single connection (PGlite) runs its transactions one at a
 * time, and other statements wait for them.
 */
export interface PgDriver extends PgConnection {
  /**
   * Runs `work` in a transaction on a connection of its own: BEGIN, then `first` (a lock), the work,
   * and COMMIT, or ROLLBACK when it throws. A connection lost meanwhile fails its statements at once.
   */
  transaction<T>(first: string | undefined, work: (connection: PgConnection) => Promise<T>): Promise<T>;
  /** A connection of its own until released, for the migrations (which begin and commit themselves). */
  reserve(): Promise<{ connection: PgConnection; release: () => void }>;
  /** The server and database, without a password. */
  readonly location: string;
  close(): Promise<void>;
}

// What the engines agree on: PostgreSQL's 64-bit integers, sums and averages come back as numbers
// (SQLite's integers and reals are numbers), a comparison as 1 or 0 (as SQLite gives it), and JSON
// as its text (SQLite stores JSON as text; the domain parses what it needs).
const asNumber = (text: string) => Number(text);
/** PostgreSQL's type ids and how their text becomes the value SQLite would give. */
export const VALUE_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  20: asNumber, // int8
  1700: asNumber, // numeric
  16: (text) => (text === "t" ? 1 : 0), // bool
  114: (text) => text, // json
  3802: (text) => text, // jsonb
};
