import { processSingleton } from "@/lib/core/process-slots";
import { isStorageFailureCause, type StorageFailure, type StorageFailureCause } from "@/lib/core/storage-failure";

// While the database cannot be written (a full disk, a read-only file, a lock held elsewhere), reads
// carry on and bookkeeping writes are skipped (busy.ts, skippableWrite): the log says so once when it
// starts or its cause changes, and once when writes work again, never once per request. Next.js may
// load this module once per route bundle and the server its own copy: the state is one per process.
// The workers of a cluster inherit it from the primary's environment, so that what the primary said
// at start-up (a read-only file) is not said again by each of them.

const INHERITED = "WAITLIST_WRITE_OUTAGE";

/**
 * How long the write lock must stay held elsewhere, with no write getting through, before it is an
 * outage: this app's own writers (the join thread's group commit, a sibling worker's dashboard write) hold
 * it for milliseconds, an import or a backup for seconds.
 */
export const BUSY_OUTAGE_MS = 1_000;

interface OutageState {
  cause?: StorageFailureCause;
  /** When writes started finding the lock taken, since the last write that worked. */
  busySince?: number;
}

const state = processSingleton("write outage", (): OutageState => {
  const inherited = process.env[INHERITED];
  return { cause: isStorageFailureCause(inherited) ? inherited : undefined };
});

/**
 * Notes that writes to `path` fail for `failure`; logs one line unless that cause was already logged,
 * or the lock has been taken ("busy") for less than BUSY_OUTAGE_MS so far.
 * A lock held elsewhere ("busy") does not replace an outage of another cause: while the disk is full
 * (or the file read-only, or the disk failing) this app's own writers (a join thread, another worker)
 * still take the write lock for their failing writes, and a write that finds it taken says nothing
 * about the disk. Only a write that works, or another cause, ends or changes the outage.
 */
export function noteWritesRefused(path: string, failure: StorageFailure, { now = Date.now(), waited = false }: { now?: number; waited?: boolean } = {}): void {
  const current = state().cause;
  if (current === failure.cause) return;
  if (failure.cause === "busy") {
    if (current !== undefined) return;
    // Another writer's turn, not an outage, until the lock has been held for BUSY_OUTAGE_MS (a write
    // that `waited` out SQLite's busy timeout already found it held that long).
    const since = (state().busySince ??= now);
    if (!waited && now - since < BUSY_OUTAGE_MS) return;
  }
  state().cause = process.env[INHERITED] = failure.cause;
  console.error(`storage: a write to ${path} failed: ${failure.message}. Until writes work again, reads are served, bookkeeping (keys' last-used times) is skipped and other writes answer 503.`);
}

/** Notes that a write to `path` worked; logs one line when writes were failing until now. */
export function noteWritesWork(path: string): void {
  state().busySince = undefined;
  if (state().cause === undefined) return;
  state().cause = undefined;
  delete process.env[INHERITED];
  console.error(`storage: writes to ${path} work again.`);
}
