import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { skippableWrite } from "@/lib/sqlite/busy";
import { preparedSql } from "@/lib/store/statements";
import { transaction } from "@/lib/store/transaction";

// Views of the join pages, counted by the server that renders them: no cookie, no script, nobody
// else. A view only adds to a number in memory; every FLUSH_MS the numbers go into join_page_views in
// one small transaction, never waiting for the write lock (held elsewhere, they wait for the next
// turn). A crash forgets at most the last FLUSH_MS of views.

export const FLUSH_MS = 5_000;

/** "waitlist id day" → views not yet written. */
const pending = new Map<string, number>();
let timer: ReturnType<typeof setTimeout> | undefined;

function upsertStatement(db: AppDatabase) {
  return preparedSql(db, "funnel.pageViews.upsert", () =>
    sql`INSERT INTO join_page_views (waitlist_id, day, count) VALUES (${sql.placeholder("waitlistId")}, ${sql.placeholder("day")}, ${sql.placeholder("count")}) ON CONFLICT (waitlist_id, day) DO UPDATE SET count = join_page_views.count + excluded.count`,
  );
}

/** Counts one view of a waitlist's join page, now; written within FLUSH_MS. */
export function countJoinPageView(waitlistId: string, at = Date.now()): void {
  const key = `${waitlistId} ${Math.floor(at / DAY_MS)}`;
  pending.set(key, (pending.get(key) ?? 0) + 1);
  flushSoon();
}

function flushSoon() {
  if (timer !== undefined) return;
  timer = setTimeout(() => {
    timer = undefined;
    void flushJoinPageViews();
  }, FLUSH_MS);
  timer.unref?.();
}

/** Writes the views counted so far; those the database cannot take now stay for the next flush. */
export async function flushJoinPageViews(db: AppDatabase = getDb()): Promise<void> {
  if (pending.size === 0) return;
  const batch = [...pending];
  pending.clear();
  const written = await skippableWrite(db, () =>
    transaction(db, async () => {
      for (const [key, count] of batch) {
        const [waitlistId, day] = key.split(" ");
        await upsertStatement(db).run({ waitlistId, day: Number(day), count });
      }
    }),
  );
  if (written) return;
  for (const [key, count] of batch) pending.set(key, (pending.get(key) ?? 0) + count);
  flushSoon();
}
