import { getDb, type AppDatabase } from "@/db/client";
import { checkpointsLeftToLitestream } from "@/lib/core/continuous-backup";

// Checkpoints apart from the writers. By default SQLite checkpoints inside the commit that takes the
// WAL past 1,000 pages: on the join thread, a commit of a group of joins then also copies those
// pages into the database file and waits for its fsync, and every join of the group waits with it.
// The server's writer threads hand that work to a checkpointer thread (lib/server/checkpoint-thread.ts)
// that copies the WAL's new pages every CHECKPOINT_EVERY_MS, and keep SQLite's own checkpoint only as
// a backstop should the checkpointer fall far behind.

/** How often the checkpointer copies the WAL's new pages into the database file. */
export const CHECKPOINT_EVERY_MS = 200;

/**
 * A writer's own checkpoint once the WAL holds this many pages (40 MB of 4 KB pages), instead of
 * SQLite's 1,000: reached only when the checkpointer cannot keep up or is not running.
 */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/** Readies a writer's connection whose checkpoints the checkpointer makes (or Litestream: lib/core/continuous-backup.ts). */
export function leaveCheckpointsToCheckpointer(db: AppDatabase = getDb()): void {
  db.$client.pragma(`wal_autocheckpoint = ${checkpointsLeftToLitestream() ? 0 : BACKSTOP_CHECKPOINT_PAGES}`);
}

/**
 * One passive checkpoint: copies into the database file the WAL's pages that no reader still needs,
 * never waiting for a lock and never holding up a writer. The pages the WAL holds and how many of
 * them are now in the file.
 */
export function checkpointPassive(db: AppDatabase = getDb()): { walPages: number; copiedPages: number } {
  const [result] = db.$client.pragma("wal_checkpoint(PASSIVE)") as { busy: number; log: number; checkpointed: number }[];
  return { walPages: result?.log ?? 0, copiedPages: result?.checkpointed ?? 0 };
}
