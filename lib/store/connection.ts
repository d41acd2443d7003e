import type { AppDatabase } from "@/db/client";

/**
 * The connection behind a database handle, as a key for what is kept per connection (prepared
 * statements, opened keys): several handles may share one connection.
 */
export function connectionOf(db: AppDatabase): object {
  return db.$client;
}

/** Where the database lives (its file): what its sealed secrets are bound to (db/master-key.ts). */
export function databaseLocation(db: AppDatabase): string {
  return db.$client.name;
}
