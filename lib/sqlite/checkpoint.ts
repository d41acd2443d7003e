import { setTimeout as sleep } from "node:timers/promises";
import type Database from "better-sqlite3";
import type { AppDatabase } from "@/db/client";
import { checkpointsLeftToLitestream } from "@/lib/core/continuous-backup";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { onItsTurn } from "@/lib/store/connection";
import { withoutBusyWait } from "./busy";

// After a deletion of personal data the deleted rows are still on disk twice: the database file holds
// their pages as they were, and the WAL holds the older versions (secure_delete zeroes only the new
// ones, db/client.ts). Only a complete checkpoint that also empties the WAL, wal_checkpoint(TRUNCATE),
// takes them off: it copies every committed page into the file and truncates the WAL to 0 bytes.
// It cannot complete while a reader still reads an older snapshot (a CSV export, a backup, another
// process's read), and waiting for it inside SQLite would block the server for the busy timeout. So
// it is tried at once, and then again with backoff between turns of the event loop until it
// completes: each attempt either completes or gives up at once.

const FIRST_RETRY_MS = 10;
const LONGEST_RETRY_MS = 1000;

const running = new WeakMap<Database.Database, Promise<boolean>>();

/** One attempt, never waiting: whether the WAL is now empty (false while a reader or writer holds it). */
function truncateNow(sqlite: Database.Database): boolean {
  const [result] = sqlite.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
  return result !== undefined && result.busy === 0;
}

/**
 * Checkpoints the WAL completely after a deletion: at once when no reader holds an older snapshot,
 * else retried in the background until it completes. Resolves true when the WAL was emptied, false
 * when the database cannot be written (read-only, full disk: logged), the connection closed, or
 * Litestream owns the checkpoints.
 * While a retry loop runs for this connection, its next attempt comes after this deletion, so it is
 * shared.
 */
export function checkpointAfterDeleting(db: AppDatabase): Promise<boolean> {
  // PostgreSQL has no WAL file of ours to empty: its autovacuum reclaims the deleted rows' space
  // (/docs/production says how an operator makes an erasure immediate there).
  if (db.$engine.kind !== "sqlite") return Promise.resolve(true);
  // Under continuous backup only Litestream checkpoints: one of ours in the moment its read transaction
  // lets go would empty the WAL before Litestream copied its last frames (lib/core/continuous-backup.ts).
  if (checkpointsLeftToLitestream()) return Promise.resolve(false);
  const sqlite = db.$client;
  const current = running.get(sqlite);
  if (current) return current;
  const attempt = async (): Promise<boolean | "retry"> => {
    if (!sqlite.open) return false;
    try {
      return (await onItsTurn(db, () => withoutBusyWait(db, () => truncateNow(sqlite)))) || "retry";
    } catch (error) {
      const failure = storageFailureOf(error);
      if (failure?.cause === "busy") return "retry";
      console.error(`checkpoint after a deletion failed: ${failure?.message ?? (error as Error).message}`);
      return false;
    }
  };
  const loop = (async () => {
    let delay = FIRST_RETRY_MS;
    for (let outcome = await attempt(); ; outcome = await attempt()) {
      if (outcome !== "retry") return outcome;
      // Unreferenced: a CLI that stops waiting may exit (the server's erasure watch takes over).
      await sleep(delay, undefined, { ref: false });
      delay = Math.min(delay * 2, LONGEST_RETRY_MS);
    }
  })().finally(() => running.delete(sqlite));
  running.set(sqlite, loop);
  return loop;
}

/** Whether `checkpoint` completed within `waitMs` (it goes on in the background if not). */
export function completedWithin(checkpoint: Promise<boolean>, waitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), waitMs);
  });
  return Promise.race([checkpoint, timeout]).finally(() => clearTimeout(timer));
}
