import type Database from "better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import type { Engine, RunResult } from "./engine";
import * as schema from "./schema";
import { sqliteEngine } from "./sqlite-engine";

/**
 * The database as the domain sees it: Drizzle's SQLite query builder, asynchronous, over an engine
 * (db/engine.ts: SQLite's or PostgreSQL's); and, on SQLite, its connection for what is SQLite's own
 * (lib/sqlite, migrations, the bulk insert).
 */
export type AppDatabase = BaseSQLiteDatabase<"async", RunResult, typeof schema> & { $engine: Engine; $client: Database.Database };

/** The domain's database over an engine. On PostgreSQL, `$client` says what asked for SQLite's own connection. */
export function overEngine(engine: Engine, sqlite?: Database.Database): AppDatabase {
  const db = drizzle(engine.execute, { schema }) as unknown as BaseSQLiteDatabase<"async", RunResult, typeof schema>;
  return Object.defineProperties(db, {
    $engine: { value: engine },
    $client: {
      get: () => {
        if (sqlite) return sqlite;
        throw new Error(`${engine.kind === "postgres" ? "PostgreSQL" : engine.kind} has no SQLite connection: this is SQLite's own work`);
      },
    },
  }) as AppDatabase;
}

/** The domain's database over a better-sqlite3 connection (db/sqlite-engine.ts). */
export function overConnection(sqlite: Database.Database): AppDatabase {
  return overEngine(sqliteEngine(sqlite), sqlite);
}
