import type { AppDatabase } from "@/db/client";

// The domain's transactions, whichever engine (db/transactions.ts). Inside another transaction either
// one is a savepoint of it: its failure undoes only its own writes, and the caller decides what to do
// with the error. On a connection every caller shares (SQLite's), a transaction holds it until it
// ends: statements of other callers wait, so nothing of theirs lands in it. Its work should await
// only statements: anything slower (the network, a timer) holds every other caller meanwhile.

/**
 * A transaction that holds the write lock from its first statement, so that what it reads and what it
 * writes see the same data: every check-then-write (a name still free, a status still waiting, the
 * next place in line) goes in one. Throwing undoes it.
 */
export function writeTransaction<T>(db: AppDatabase, work: () => Promise<T>): Promise<T> {
  return db.$engine.transaction("write", work);
}

/**
 * A transaction that takes the write lock only at its first write: several writes that must land
 * together, or reads that must see one state, where nothing read decides what is written.
 */
export function transaction<T>(db: AppDatabase, work: () => Promise<T>): Promise<T> {
  return db.$engine.transaction("read", work);
}
