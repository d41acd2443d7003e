import { getDb, type AppDatabase } from "@/db/client";
import { startSqliteBulkInsert } from "@/lib/domain/signups/bulk-insert";
import type { NewSignup } from "@/lib/domain/signups/queries";

/**
 * Signups into one waitlist as the app writes them (the import's bulk writer, which derives counts,
 * input pairs and search entries), in one transaction. `createdAt` is the time of those without
 * their own. Returns how many went in (an email the waitlist has already is skipped).
 */
export function insertSignups(waitlistId: string, signups: Iterable<NewSignup>, db: AppDatabase = getDb(), createdAt = Date.now()): number {
  // IMMEDIATE, as the import's own: a deferred transaction that reads first cannot become a writer
  // once another connection (a live server's delivery sender) has committed meanwhile (SQLITE_BUSY).
  return db.$client
    .transaction(() => {
      const bulk = startSqliteBulkInsert(waitlistId, db);
      let inserted = 0;
      for (const signup of signups) if (bulk.add(signup, createdAt)) inserted++;
      bulk.finish();
      return inserted;
    })
    .immediate();
}
