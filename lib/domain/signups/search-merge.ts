import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { preparedOnce } from "@/lib/sqlite/statements";

// The email search index (signup_email_search: SQLite's full-text index, trigrams) keeps what each
// join writes as a small segment of its own and merges segments later (migration 0026). Merged in
// the join thread's path, a merge of large segments held every join behind it for up to 1.5 s; the
// join thread merges between groups of joins instead, a step at a time, while no join waits.

/** How many pages of merged segments one step writes at most (a few milliseconds of the join thread). */
export const SEARCH_MERGE_STEP_PAGES = 64;

function statements(db: AppDatabase) {
  return preparedOnce(db, "signups.search-merge", () => ({
    // Raw: the full-text index's own command, which has no builder form.
    merge: db.$client.prepare<[number]>("INSERT INTO signup_email_search (signup_email_search, rank) VALUES ('merge', ?)"),
    changes: db.$client.prepare<[], number>("SELECT total_changes()").pluck(),
  }));
}

/**
 * One step of merging the search index's segments (levels of 4 or more, up to `pages` pages
 * written), in a transaction of its own: true when it merged something, so more may be left.
 */
export function mergeSearchStep(pages = SEARCH_MERGE_STEP_PAGES, db: AppDatabase = getDb()): boolean {
  const prepared = statements(db);
  const before = prepared.changes.get()!;
  prepared.merge.run(pages);
  // SQLite's documented test: a merge that did nothing changes fewer than 2 rows.
  return prepared.changes.get()! - before >= 2;
}
