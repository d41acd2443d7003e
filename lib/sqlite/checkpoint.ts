import type { AppDatabase } from "@/db/client";
import { withoutBusyWait } from "./busy";

/**
 * After a deletion of personal data: copies every committed page from the WAL into the database file
 * and empties the WAL, so the old versions of the deleted rows' pages leave it (the file's own pages
 * are overwritten by secure_delete, db/client.ts). It never waits: a reader still reading an older
 * snapshot (a CSV export in progress) keeps the WAL from being emptied, and waiting for it would stall
 * the server for the whole busy timeout. SQLite then overwrites the WAL as it reuses it from the start,
 * and the next deletion's checkpoint empties it. Returns whether the WAL was emptied now.
 */
export function checkpointAfterDeleting(db: AppDatabase): boolean {
  const [result] = withoutBusyWait(db, () => db.$client.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[]);
  return result !== undefined && result.busy === 0;
}
