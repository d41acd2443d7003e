import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AppDatabase } from "@/db/client";

/**
 * What the engines spell differently, in one place per engine: the domain writes its SQL once with
 * these fragments, and `preparedSql` hands each statement the dialect of its connection. Only the
 * embedded SQLite exists today; PostgreSQL gets its own implementation of this interface
 * (issue 34), so a fragment's comment says what it must mean on both.
 */
export interface Dialect {
  /** The elements of a JSON array (a parameter holding `JSON.stringify([…])`), as rows of one column `value`: a FROM item. */
  jsonRows(array: SQLWrapper, alias: string): SQL;
  /** `IN (…)` over the elements of a JSON array parameter. */
  inJson(array: SQLWrapper): SQL;
  /** After a table name: the index a statement must use, where the engine's planner would otherwise pick a worse one. */
  indexedBy(index: string): SQL;
  /** A column kept out of the index choice (a condition checked on the rows an index found, not used to find them). */
  notIndexed(column: SQLWrapper): SQL;
  /** An integer compared inside a row value, written so that the engine seeks on it (lib/store/keyset.ts says why SQLite needs it). */
  seekable(value: SQLWrapper): SQL;
  /** jsonRows with a second column `key`, each element's index in the array from 0: a FROM item whose rows can be ordered as the array is. */
  jsonRowsInOrder(array: SQLWrapper, alias: string): SQL;
}

/** SQLite's spellings. */
export const sqliteDialect: Dialect = {
  jsonRows: (array, alias) => sql`json_each(${array}) AS ${sql.raw(alias)}`,
  inJson: (array) => sql`IN (SELECT value FROM json_each(${array}))`,
  indexedBy: (index) => sql.raw(`INDEXED BY ${index}`),
  notIndexed: (column) => sql`+${column}`,
  seekable: (value) => sql`${value} collate binary`,
  jsonRowsInOrder: (array, alias) => sql`json_each(${array}) AS ${sql.raw(alias)}`,
};

/** The dialect of a connection's engine: every connection is SQLite's until PostgreSQL lands (issue 34). */
export function dialectOf(_db: AppDatabase): Dialect {
  return sqliteDialect;
}
