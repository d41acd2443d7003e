import { getDb, type AppDatabase } from "@/db/client";
import { leaveCheckpointsToCheckpointer } from "./background-checkpoint";

/**
 * SQLite's page cache of a writer thread's connection, in KiB (the default is 2 MB). Each join and
 * each status change touches pages all over a large list's indexes (the unique address index, the
 * search index's trigrams, the status and line indexes, the counting tables): with the default cache
 * most of them are read again from the file for every write.
 */
const WRITER_CACHE_KIB = 64 * 1024;

/** Readies the connection of a writer thread (lib/server/join-worker.ts, status-worker.ts). */
export function prepareWriterConnection(db: AppDatabase = getDb()): void {
  db.$client.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
  leaveCheckpointsToCheckpointer(db);
}
