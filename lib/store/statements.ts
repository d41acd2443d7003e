import { fillPlaceholders, sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import type { AppDatabase } from "@/db/client";
import { cachedStatement } from "@/db/statement-cache";
import { connectionOf } from "./connection";
import { dialectOf, type Dialect } from "./dialect";

const caches = new WeakMap<object, Map<string, unknown>>();

/**
 * The one statement cache: a statement built once per connection and key (a name, plus the filter
 * shape where the SQL depends on which filters are set; values go in as placeholders). Drizzle's
 * query builder otherwise rebuilds the SQL text and has SQLite compile it again on every call,
 * which on a hot path (the key and waitlist lookups of every /v1 request) costs more than running it.
 */
export function preparedOnce<T>(db: AppDatabase, key: string, prepare: () => T): T {
  let cache = caches.get(connectionOf(db));
  if (!cache) caches.set(connectionOf(db), (cache = new Map()));
  return cachedStatement(cache as Map<string, T>, key, prepare);
}

/**
 * A placeholder whose value reaches SQLite as it is given. A bare `sql.placeholder` compared with or
 * assigned to a column is encoded by that column first (a timestamp column wants a Date).
 */
export const valuePlaceholder = (name: string) => sql`${sql.placeholder(name)}`;

const renderer = new SQLiteSyncDialect();

/**
 * A statement written in SQL (what Drizzle's query builder cannot express: a join driven by a
 * virtual table, a chosen index, an INSERT … SELECT), prepared once like the others. The fragment
 * gets the connection's dialect (./dialect.ts) for what the engines spell differently, and names its
 * values with `sql.placeholder`: they are filled at each call.
 */
export function preparedSql<Row>(db: AppDatabase, key: string, fragment: (dialect: Dialect) => SQL) {
  return preparedOnce(db, key, () => {
    const query = renderer.sqlToQuery(fragment(dialectOf(db)));
    const statement = db.$engine.prepare(query.sql);
    const bind = (values: Record<string, unknown>) => fillPlaceholders(query.params, values);
    return {
      get: (values: Record<string, unknown> = {}) => statement.get<Row>(bind(values)),
      all: (values: Record<string, unknown> = {}) => statement.all<Row>(bind(values)),
      /** The rows as arrays of their columns, in the order selected (columns may share a name). */
      values: (values: Record<string, unknown> = {}) => statement.values(bind(values)),
      /** The rows as arrays of each column's text as UTF-8 bytes (EngineStatement.bytes). */
      bytes: (values: Record<string, unknown> = {}) => statement.bytes(bind(values)),
      run: (values: Record<string, unknown> = {}) => statement.run(bind(values)),
    };
  });
}

/**
 * A statement whose text depends on its input (a batch's rows as one multi-row VALUES), rendered and
 * prepared at each call; its named placeholders are filled from `values`. For a batch, one statement
 * of N rows costs one round trip where N prepared ones cost N (on PostgreSQL, the join batch's inserts).
 */
export function batchSql<Row>(db: AppDatabase, fragment: (dialect: Dialect) => SQL, values: Record<string, unknown> = {}) {
  const query = renderer.sqlToQuery(fragment(dialectOf(db)));
  const statement = db.$engine.prepare(query.sql);
  const params = fillPlaceholders(query.params, values);
  return { all: () => statement.all<Row>(params), run: () => statement.run(params) };
}
