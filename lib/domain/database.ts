import { openDatabase } from "@/db/client";

/**
 * Creates the database file when missing and applies its pending migrations, then closes it.
 * `npm start` runs it once before it serves (with several workers, in the primary before any of
 * them starts), so that a failing migration stops the start and workers only ever open an
 * up-to-date file.
 */
export function migrateDatabase(path: string): void {
  openDatabase(path).$client.close();
}
