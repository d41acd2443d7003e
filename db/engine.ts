import type { AsyncRemoteCallback } from "drizzle-orm/sqlite-proxy";

/** What a write did, on every engine: the rows it changed. */
export interface RunResult {
  changes: number;
}

/** A statement written in SQL, prepared once; values bind to its `?` in order. */
export interface EngineStatement {
  /** The first row, as an object keyed by column name. */
  get<Row>(params: unknown[]): Promise<Row | undefined>;
  all<Row>(params: unknown[]): Promise<Row[]>;
  /** The rows as arrays of their columns, in the order selected (columns may share a name). */
  values(params: unknown[]): Promise<unknown[][]>;
  /**
   * The rows as arrays of each column's value as UTF-8 text bytes (null stays null): a long text
   * (a stream's page of JSON) goes to a socket without becoming a JavaScript string.
   */
  bytes(params: unknown[]): Promise<(Uint8Array | null)[][]>;
  run(params: unknown[]): Promise<RunResult>;
}

/** How a transaction starts: `write` holds the database's write lock from its first statement, `read` takes it only at its first write. */
export type TransactionMode = "write" | "read";

/**
 * One database engine behind the domain's one query layer: Drizzle's SQLite builder renders every
 * statement (placeholders `?`), and the engine runs it. SQLite (db/sqlite-engine.ts) and PostgreSQL
 * (db/pg/engine.ts) each implement this once; nothing above db/ and lib/store knows which one runs.
 */
export interface Engine {
  readonly kind: "sqlite" | "postgres";
  /** Where the database lives (a file, or a server's address without its password): what sealed secrets are bound to, and what messages name. */
  readonly location: string;
  /** Drizzle's sqlite-proxy callback: runs one builder statement (rows as arrays). */
  readonly execute: AsyncRemoteCallback;
  prepare(text: string): EngineStatement;
  /** Runs `work` in a transaction; inside another of the same caller, as a savepoint of it. */
  transaction<T>(mode: TransactionMode, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
