import type { AppDatabase } from "@/db/client";
import { awaitTurn, callersTurn, holdTurn, mayRunNow } from "@/db/connection-turns";

// The domain's transactions, whichever engine. Inside another transaction either one is a savepoint
// of it: its failure undoes only its own writes, and the caller decides what to do with the error.
// A transaction holds its connection until it ends (db/connection-turns.ts): statements of other
// callers wait, so nothing of theirs lands in it. Its work should await only statements: anything
// slower (the network, a timer) holds every other caller of the connection meanwhile.

/**
 * A transaction that holds the write lock from its first statement, so that what it reads and what it
 * writes see the same data: every check-then-write (a name still free, a status still waiting, the
 * next place in line) goes in one. Throwing undoes it.
 */
export function writeTransaction<T>(db: AppDatabase, work: () => Promise<T>): Promise<T> {
  return inTransaction(db, "BEGIN IMMEDIATE", work);
}

/**
 * A transaction that takes the write lock only at its first write: several writes that must land
 * together, or reads that must see one state, where nothing read decides what is written.
 */
export function transaction<T>(db: AppDatabase, work: () => Promise<T>): Promise<T> {
  return inTransaction(db, "BEGIN", work);
}

async function inTransaction<T>(db: AppDatabase, begin: string, work: () => Promise<T>): Promise<T> {
  const sqlite = db.$client;
  const outer = callersTurn(sqlite);
  if (outer) return inSavepoint(db, `nested_${++outer.savepoints}`, work);
  while (!mayRunNow(sqlite)) await awaitTurn(sqlite);
  return holdTurn(
    sqlite,
    () => sqlite.exec(begin),
    work,
    (failed) => {
      if (!failed) {
        try {
          sqlite.exec("COMMIT");
          return;
        } catch (error) {
          // A commit SQLite refused (a full disk) leaves the transaction open: undo it, then say why.
          if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
          throw error;
        }
      }
      // SQLite may have rolled back already (a full disk, an interrupted statement).
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    },
  );
}

async function inSavepoint<T>(db: AppDatabase, name: string, work: () => Promise<T>): Promise<T> {
  const sqlite = db.$client;
  sqlite.exec(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    sqlite.exec(`RELEASE ${name}`);
    return result;
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
    throw error;
  }
}
