import type Database from "better-sqlite3";
import { RemotePreparedQuery, type AsyncRemoteCallback } from "drizzle-orm/sqlite-proxy";
import { awaitTurn, mayRunNow } from "./connection-turns";
import type { Engine, EngineStatement, RunResult, TransactionMode } from "./engine";
import { cachedStatement } from "./statement-cache";
import { onSharedConnection, runTransaction, type TransactionSupport } from "./transactions";

// Drizzle wraps every failed statement in an error of its own whose message holds the statement and
// its values (an address: personal data, in every log line that prints it), the engine's error
// (its code: SQLITE_BUSY, SQLITE_FULL, a unique address) only as its cause. The code reads the
// engine's error, as it did from better-sqlite3's own driver: the statement runs unwrapped. (The
// wrapper's other job, Drizzle's query cache, is not used here.) The same holds on PostgreSQL.
(RemotePreparedQuery.prototype as unknown as { queryWithCache: (text: string, params: unknown[], query: () => Promise<unknown>) => Promise<unknown> }).queryWithCache = (
  _text,
  _params,
  query,
) => query();

const BEGIN: Record<TransactionMode, string> = { write: "BEGIN IMMEDIATE", read: "BEGIN" };

/** A value as the text bytes EngineStatement.bytes gives: a blob as it is, a number as its text. */
function asBytes(value: unknown): Uint8Array | null {
  if (value === null || value instanceof Uint8Array) return value;
  return Buffer.from(String(value));
}

/** Waits while another caller's transaction holds the connection (./connection-turns.ts). */
async function onTurn<T>(sqlite: Database.Database, work: () => T): Promise<T> {
  while (!mayRunNow(sqlite)) await awaitTurn(sqlite);
  return work();
}

/**
 * The embedded engine: a better-sqlite3 connection, shared by every caller of its process (or
 * thread). Each statement runs synchronously; the domain awaits it as it would PostgreSQL's. Builder
 * rows go back as arrays (Drizzle maps them to its fields), statements cached by their text.
 */
export function sqliteEngine(sqlite: Database.Database): Engine {
  const statements = new Map<string, Database.Statement>();
  const rawStatement = (text: string) =>
    cachedStatement(statements, text, () => {
      const statement = sqlite.prepare(text);
      return statement.reader ? statement.raw(true) : statement;
    });
  const runStatement = (statement: Database.Statement, params: unknown[]): RunResult => ({ changes: statement.run(...params).changes });
  const execute: AsyncRemoteCallback = (text, params, method) =>
    onTurn(sqlite, () => {
      const statement = rawStatement(text);
      if (method === "run" || !statement.reader) return { rows: [], ...runStatement(statement, params) };
      return { rows: method === "get" ? statement.get(...params) : statement.all(...params) } as { rows: unknown[] };
    });
  const prepare = (text: string): EngineStatement => {
    const statement = sqlite.prepare<unknown[]>(text);
    return {
      get: <Row>(params: unknown[]) => onTurn(sqlite, () => statement.get(...params) as Row | undefined),
      all: <Row>(params: unknown[]) => onTurn(sqlite, () => statement.all(...params) as Row[]),
      values: (params) =>
        onTurn(sqlite, () => {
          const rows = statement.raw(true).all(...params) as unknown[][];
          statement.raw(false);
          return rows;
        }),
      bytes: (params) =>
        onTurn(sqlite, () => {
          const rows = statement.raw(true).all(...params) as unknown[][];
          statement.raw(false);
          return rows.map((row) => row.map(asBytes));
        }),
      run: (params) => onTurn(sqlite, () => runStatement(statement, params)),
    };
  };
  const transactions: TransactionSupport<Database.Database> = {
    owner: sqlite,
    open: (mode, work) => onSharedConnection(transactions, sqlite, BEGIN[mode], work),
    exec: (connection, text) => void connection.exec(text),
    inTransaction: (connection) => connection.inTransaction,
  };
  return {
    kind: "sqlite",
    location: sqlite.name,
    execute,
    prepare,
    transaction: (mode, work) => runTransaction(transactions, mode, work),
    close: () => Promise.resolve(void sqlite.close()),
  };
}
