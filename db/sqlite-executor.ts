import type Database from "better-sqlite3";
import { RemotePreparedQuery, type AsyncRemoteCallback } from "drizzle-orm/sqlite-proxy";
import { awaitTurn, mayRunNow } from "./connection-turns";
import { cachedStatement } from "./statement-cache";

// Drizzle wraps every failed statement in an error of its own whose message holds the statement and
// its values (an address: personal data, in every log line that prints it), the engine's error
// (its code: SQLITE_BUSY, SQLITE_FULL, a unique address) only as its cause. The code reads the
// engine's error, as it did from better-sqlite3's own driver: the statement runs unwrapped. (The
// wrapper's other job, Drizzle's query cache, is not used here.)
(RemotePreparedQuery.prototype as unknown as { queryWithCache: (text: string, params: unknown[], query: () => Promise<unknown>) => Promise<unknown> }).queryWithCache = (
  _text,
  _params,
  query,
) => query();

/** What a write did, as Drizzle's `run()` gives it on every engine: the rows it changed, and the id of the last row it inserted. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

/**
 * Drizzle's query builder on a better-sqlite3 connection, through `drizzle-orm/sqlite-proxy`: the
 * domain's queries are asynchronous, as they are on PostgreSQL, and SQLite still runs each one
 * synchronously here. Rows go back as arrays (the builder maps them to its fields). A statement
 * waits while another caller's transaction holds the connection (./connection-turns.ts).
 */
export function sqliteExecutor(sqlite: Database.Database): AsyncRemoteCallback {
  const statements = new Map<string, Database.Statement>();
  const prepared = (text: string) =>
    cachedStatement(statements, text, () => {
      const statement = sqlite.prepare(text);
      return statement.reader ? statement.raw(true) : statement;
    });
  const execute = (text: string, params: unknown[], method: "run" | "all" | "values" | "get") => {
    const statement = prepared(text);
    if (method === "run" || !statement.reader) {
      const { changes, lastInsertRowid } = statement.run(...params);
      const result: RunResult = { changes, lastInsertRowid: Number(lastInsertRowid) };
      return { rows: [], ...result };
    }
    return { rows: method === "get" ? statement.get(...params) : statement.all(...params) } as { rows: unknown[] };
  };
  return async (text, params, method) => {
    while (!mayRunNow(sqlite)) await awaitTurn(sqlite);
    return execute(text, params, method);
  };
}
