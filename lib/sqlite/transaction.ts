import type { AppDatabase } from "@/db/client";

/**
 * Runs `work` in the caller's transaction when there is one, else in an IMMEDIATE transaction of its
 * own. Not in a savepoint of its own: at every SAVEPOINT and RELEASE, SQLite's full-text index
 * (signup_email_search) writes the terms it holds so far as a segment of its own, which it merges
 * later: inserting addresses into it took 210–250 µs each with a savepoint around each, 40–47 µs
 * without (the 1M bench list), and a group commit's join 633–673 µs of CPU against 668–714 with the
 * savepoints. A caller that must undo part of its work opens the savepoint itself.
 */
export function inTransaction<T>(db: AppDatabase, work: () => T): T {
  return db.$client.inTransaction ? work() : db.$client.transaction(work).immediate();
}
