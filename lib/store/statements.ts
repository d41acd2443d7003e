import { fillPlaceholders, sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { AppDatabase } from "@/db/client";
import { connectionOf } from "./connection";
import { dialectOf, type Dialect } from "./dialect";

const caches = new WeakMap<object, Map<string, unknown>>();

/**
 * Statements kept per connection. Filter shapes × page positions × `fields` choices make thousands
 * of possible statements (about 23 KB each): the least recently used ones beyond this are dropped
 * (better-sqlite3 finalizes a statement once nothing references it), so a client cycling through
 * shapes cannot grow the cache without end.
 */
export const MAX_CACHED_STATEMENTS = 1000;

/**
 * The one statement cache: a statement built once per connection and key (a name, plus the filter
 * shape where the SQL depends on which filters are set; values go in as placeholders). Drizzle's
 * query builder otherwise rebuilds the SQL text and has SQLite compile it again on every call,
 * which on a hot path (the key and waitlist lookups of every /v1 request) costs more than running it.
 */
export function preparedOnce<T>(db: AppDatabase, key: string, prepare: () => T): T {
  let cache = caches.get(connectionOf(db));
  if (!cache) caches.set(connectionOf(db), (cache = new Map()));
  let statement = cache.get(key) as T | undefined;
  if (statement === undefined) {
    statement = prepare();
    if (cache.size >= MAX_CACHED_STATEMENTS) cache.delete(cache.keys().next().value!);
  } else {
    cache.delete(key);
  }
  cache.set(key, statement);
  return statement;
}

/**
 * A placeholder whose value reaches SQLite as it is given. A bare `sql.placeholder` compared with or
 * assigned to a column is encoded by that column first (a timestamp column wants a Date).
 */
export const valuePlaceholder = (name: string) => sql`${sql.placeholder(name)}`;

const renderer = new SQLiteSyncDialect();

/** What a write did: the rows it changed, and the id of the last row it inserted. */
export interface WriteResult {
  changes: number;
  insertedId: number;
}

/**
 * A statement written in SQL (what Drizzle's query builder cannot express: a join driven by a
 * virtual table, a chosen index, an INSERT … SELECT), prepared once like the others. The fragment
 * gets the connection's dialect (./dialect.ts) for what the engines spell differently, and names its
 * values with `sql.placeholder`: they are filled at each call.
 */
export function preparedSql<Row>(db: AppDatabase, key: string, fragment: (dialect: Dialect) => SQL) {
  return preparedOnce(db, key, () => {
    const query = renderer.sqlToQuery(fragment(dialectOf(db)));
    const statement = db.$client.prepare<unknown[], Row>(query.sql);
    const bind = (values: Record<string, unknown>) => fillPlaceholders(query.params, values);
    return {
      get: (values: Record<string, unknown> = {}) => statement.get(...bind(values)),
      all: (values: Record<string, unknown> = {}) => statement.all(...bind(values)),
      /** The rows as arrays of their columns, in the order selected (columns may share a name). */
      values: (values: Record<string, unknown> = {}) => {
        const rows = statement.raw(true).all(...bind(values)) as unknown[][];
        statement.raw(false);
        return rows;
      },
      run: (values: Record<string, unknown> = {}): WriteResult => {
        const { changes, lastInsertRowid } = statement.run(...bind(values));
        return { changes, insertedId: Number(lastInsertRowid) };
      },
    };
  });
}
