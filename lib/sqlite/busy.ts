import type { AppDatabase } from "@/db/client";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { databaseLocation } from "@/lib/store/connection";
import { noteWritesRefused, noteWritesWork } from "./write-outage";

// better-sqlite3 runs each statement synchronously: while another process holds SQLite's write
// lock (a CLI import holds it until it commits, up to half a minute), a write waits inside SQLite
// for the busy timeout and blocks the whole server meanwhile, then fails. These helpers never wait inside
// SQLite: a hint is skipped, and a write that matters is retried between turns of the event loop.

/** Whether SQLite gave up waiting for a lock another connection holds (SQLITE_BUSY and its variants). */
export function isBusy(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === "string" && (error as { code: string }).code.startsWith("SQLITE_BUSY");
}

const shortened = new WeakMap<AppDatabase["$client"], { busyTimeout: number; writes: number }>();

/**
 * Runs `write` with SQLite's busy timeout at `waitMs` (at most the connection's own): a lock held
 * elsewhere longer fails it (SQLITE_BUSY). Asynchronous writes may overlap: the connection's own
 * timeout comes back when the last of them ends.
 */
export function withBusyWait<T>(db: AppDatabase, waitMs: number, write: () => T): T {
  // PostgreSQL waits for a lock without holding the server's thread: nothing to shorten.
  if (db.$engine.kind !== "sqlite") return write();
  const sqlite = db.$client;
  let state = shortened.get(sqlite);
  if (!state) shortened.set(sqlite, (state = { busyTimeout: sqlite.pragma("busy_timeout", { simple: true }) as number, writes: 0 }));
  const held = state;
  held.writes++;
  const restore = () => {
    if (--held.writes > 0) return;
    shortened.delete(sqlite);
    if (sqlite.open) sqlite.pragma(`busy_timeout = ${held.busyTimeout}`);
  };
  sqlite.pragma(`busy_timeout = ${Math.max(0, Math.min(Math.floor(waitMs), held.busyTimeout))}`);
  let result: T;
  try {
    result = write();
  } catch (error) {
    restore();
    throw error;
  }
  if (result instanceof Promise) return result.finally(restore) as T;
  restore();
  return result;
}

/** Runs `write` with SQLite's busy timeout at 0: a lock held elsewhere fails (or reports busy) at once. */
export function withoutBusyWait<T>(db: AppDatabase, write: () => T): T {
  return withBusyWait(db, 0, write);
}

/**
 * A write that may be skipped (a hint, a clean-up), so that a read never fails for it: false when the
 * database cannot be written now (the write lock held elsewhere, a full disk, a read-only file), which
 * the log says once (write-outage.ts), not once per request.
 */
export async function skippableWrite(db: AppDatabase, write: () => Promise<void>): Promise<boolean> {
  try {
    await withoutBusyWait(db, write);
  } catch (error) {
    const failure = storageFailureOf(error);
    if (!failure) throw error;
    noteWritesRefused(databaseLocation(db), failure);
    return false;
  }
  noteWritesWork(databaseLocation(db));
  return true;
}

/**
 * A write that must happen, without blocking the server: tried at once, then every 25 ms while the
 * write lock is held elsewhere, for up to `maxWaitMs` (then the busy error is thrown).
 */
export async function writeWhenUnlocked<T>(db: AppDatabase, write: () => Promise<T>, maxWaitMs = 60_000): Promise<T> {
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    try {
      return await withoutBusyWait(db, write);
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
