import type { AsyncRemoteCallback } from "drizzle-orm/sqlite-proxy";
import { callersTurn, holdTurn } from "../connection-turns";
import type { Engine, EngineStatement, TransactionMode } from "../engine";
import { runTransaction, type TransactionSupport } from "../transactions";
import type { PgConnection, PgDriver, PgRowMode } from "./driver";
import { postgresText } from "./placeholders";

// Every write transaction takes one lock first, as SQLite's BEGIN IMMEDIATE takes its write lock: the
// domain's check-then-write transactions (a name still free, the next place in line) stay correct
// under READ COMMITTED, and events commit in the order of their ids (readers of the outbox page by id).
const WRITE_LOCK_KEY = 3_400_000_002;
const FIRST_STATEMENT: Record<TransactionMode, string | undefined> = { write: `SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`, read: undefined };

// PostgreSQL's `detail` repeats a row's values ("Key (email)=(…) already exists"), and a driver may
// attach the statement's values: an address, into every log line that prints the error. Its code and
// message say enough.
const VALUE_FIELDS = ["detail", "params", "parameters"];

function withoutValues(error: unknown): unknown {
  if (error === null || typeof error !== "object") return error;
  for (const field of VALUE_FIELDS) if (Object.getOwnPropertyDescriptor(error, field)?.configurable) delete (error as Record<string, unknown>)[field];
  return error;
}

/**
 * PostgreSQL behind the domain's one query layer: the statements Drizzle's SQLite builder and
 * `preparedSql` render, with their `?` numbered, run on the caller's transaction's connection, or on
 * any of the driver's outside one.
 */
export function pgEngine(driver: PgDriver): Engine {
  const owner = {};
  const connection = (): PgConnection => (callersTurn(owner)?.connection as PgConnection | undefined) ?? driver;
  const query = (text: string, params: readonly unknown[], rows: PgRowMode) =>
    connection()
      .query(postgresText(text), params, rows)
      .catch((error: unknown) => {
        throw withoutValues(error);
      });
  const execute: AsyncRemoteCallback = async (text, params, method) => {
    const result = await query(text, params, "arrays");
    if (method === "run") return { rows: [], changes: result.count } as { rows: unknown[] };
    return { rows: method === "get" ? result.rows[0] : result.rows } as { rows: unknown[] };
  };
  const prepare = (text: string): EngineStatement => ({
    get: async <Row>(params: unknown[]) => (await query(text, params, "objects")).rows[0] as Row | undefined,
    all: async <Row>(params: unknown[]) => (await query(text, params, "objects")).rows as Row[],
    values: async (params) => (await query(text, params, "arrays")).rows as unknown[][],
    bytes: async (params) => (await query(text, params, "bytes")).rows as (Uint8Array | null)[][],
    run: async (params) => ({ changes: (await query(text, params, "arrays")).count }),
  });
  const transactions: TransactionSupport<PgConnection> = {
    owner,
    // The driver begins and ends it (postgres.js's begin(): a lost connection fails its statements at
    // once); the turn makes its statements find its connection.
    open: (mode, work) => driver.transaction(FIRST_STATEMENT[mode], (on) => holdTurn(owner, on, () => {}, work, () => {})),
    exec: (on, text) => on.exec(text),
    // PostgreSQL keeps a failed transaction open until ROLLBACK (and a refused COMMIT has ended it: a
    // ROLLBACK then only warns).
    inTransaction: () => true,
  };
  return {
    kind: "postgres",
    location: driver.location,
    execute,
    prepare,
    transaction: (mode, work) => runTransaction(transactions, mode, work),
    close: () => driver.close(),
  };
}
