import { getDb, type AppDatabase } from "@/db/client";
import { withBusyWait, writeWhenUnlocked } from "@/lib/sqlite/busy";

/**
 * For the server: one of the domain's writes, without blocking the server while another
 * process holds SQLite's write lock (a CLI import, for up to half a minute): it is retried between
 * turns of the event loop instead of waiting inside SQLite (lib/sqlite/busy.ts). The CLI may wait.
 */
export function writeWithoutBlocking<T>(write: () => Promise<T>, db: AppDatabase = getDb()): Promise<T> {
  return writeWhenUnlocked(db, write);
}

/**
 * For a thread that may wait inside SQLite (a writer thread of the server): `write`, waiting for the
 * write lock no longer than until `deadline` (ms since the epoch; without one, the busy timeout).
 */
export async function writeBefore<T>(deadline: number | undefined, write: () => Promise<T>, db: AppDatabase = getDb()): Promise<T> {
  return deadline === undefined ? await write() : await withBusyWait(db, deadline - Date.now(), write);
}
