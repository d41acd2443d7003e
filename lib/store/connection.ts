import type Database from "better-sqlite3";
import type { AppDatabase } from "@/db/client";
import { awaitTurn, mayRunNow } from "@/db/connection-turns";

/**
 * The connection behind a database handle, as a key for what is kept per connection (prepared
 * statements, opened keys): several handles may share one connection.
 */
export function connectionOf(db: AppDatabase): object {
  return db.$engine;
}

/** Where the database lives (its file): what its sealed secrets are bound to (db/master-key.ts). */
export function databaseLocation(db: AppDatabase): string {
  return db.$engine.location;
}

/**
 * Runs SQLite's own work on the connection (a pragma, a checkpoint, a statement of its own) when no
 * other caller's transaction holds it (db/connection-turns.ts).
 */
export async function onItsTurn<T>(db: AppDatabase, work: (sqlite: Database.Database) => T): Promise<T> {
  while (!mayRunNow(db.$client)) await awaitTurn(db.$client);
  return work(db.$client);
}
