import { getDb, type AppDatabase } from "@/db/client";
import { startBulkInsert } from "@/lib/domain/signups/bulk-insert";
import type { NewSignup } from "@/lib/domain/signups/queries";
import { writeTransaction } from "@/lib/store/transaction";

/**
 * Signups into one waitlist, on `db` (the app's database unless told), through the app's bulk writer
 * (either engine: it derives counts, input pairs and search entries), in one write transaction.
 * `createdAt` is the time of those without their own. Returns how many went in.
 */
export async function seedSignups(waitlistId: string, signups: readonly NewSignup[], db: AppDatabase = getDb(), createdAt = Date.now()): Promise<number> {
  return await writeTransaction(db, async () => {
    const bulk = startBulkInsert(waitlistId, db);
    const inserted = await bulk.add(signups, createdAt);
    await bulk.finish();
    return inserted;
  });
}
