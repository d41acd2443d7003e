import { getDb, type AppDatabase } from "@/db/client";
import { writeWhenUnlocked } from "@/lib/sqlite/busy";

/**
 * For the server: one of the domain's synchronous writes, without blocking the server while another
 * process holds SQLite's write lock (a CLI import, for up to half a minute): it is retried between
 * turns of the event loop instead of waiting inside SQLite (lib/sqlite/busy.ts). The CLI may wait.
 */
export function writeWithoutBlocking<T>(write: () => T, db: AppDatabase = getDb()): Promise<T> {
  return writeWhenUnlocked(db, write);
}
