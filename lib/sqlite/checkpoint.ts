import type { AppDatabase } from "@/db/client";

/**
 * After a deletion of personal data: copies every committed page from the WAL into the database file
 * and empties the WAL, so the old versions of the deleted rows' pages leave it (the file's own pages
 * are overwritten by secure_delete, db/client.ts). A reader still reading an older snapshot keeps the
 * WAL from being emptied; SQLite then reuses it from the start once that reader is done, and the next
 * erasure's checkpoint empties it. Returns whether the WAL was emptied now.
 */
export function checkpointAfterDeleting(db: AppDatabase): boolean {
  const [result] = db.$client.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number; checkpointed: number }[];
  return result !== undefined && result.busy === 0;
}
