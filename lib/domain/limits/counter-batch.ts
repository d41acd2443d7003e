import "server-only";
import { sql } from "drizzle-orm";
import type { AppDatabase } from "@/db/client";
import { batchSql, preparedSql } from "@/lib/store/statements";
import { pruneNowAndThen, type LimitWindow, type WindowCount } from "./counter";

// The counters of a batch (the join thread's group commit): every key the batch may hit read in one
// statement, each hit counted in memory in the batch's order with the same rule as countHit (a hit
// after its window ended opens a new one), and the counters it changed written back in one upsert.
// Two statements for a batch where countHit is one per hit: on PostgreSQL a join hits four counters,
// each a round trip. Call it inside a write transaction: no other write runs between the read and the
// write (SQLite's write lock; PostgreSQL's advisory lock of db/pg/engine.ts).

export interface CounterBatch {
  /** Counts one hit for `key` (one of the keys read): undefined while its window has had at most `limit` hits, else the seconds until it ends. */
  hit(key: string, window: LimitWindow): number | undefined;
  /** Writes the counters the hits changed since the last write (none: no statement). */
  write(): Promise<void>;
}

/** The running windows of `keys` at `now`, to be hit in memory and written back. */
export async function readCounters(keys: readonly string[], now: number, db: AppDatabase): Promise<CounterBatch> {
  await pruneNowAndThen(now, db);
  const distinct = [...new Set(keys)];
  const rows =
    distinct.length === 0
      ? []
      : await preparedSql<WindowCount & { key: string }>(
          db,
          "limits.counterBatch.read",
          (d) => sql`SELECT key, count, window_end AS windowEnd FROM rate_limits WHERE key ${d.inJson(sql.placeholder("keys"))} AND window_end > ${sql.placeholder("now")}`,
        ).all({ keys: JSON.stringify(distinct), now });
  const counts = new Map<string, WindowCount>(rows.map(({ key, count, windowEnd }) => [key, { count: Number(count), windowEnd: Number(windowEnd) }]));
  const changed = new Set<string>();
  return {
    hit(key, window) {
      const running = counts.get(key);
      const count = running && running.windowEnd > now ? { count: running.count + 1, windowEnd: running.windowEnd } : { count: 1, windowEnd: now + window.windowMs };
      counts.set(key, count);
      changed.add(key);
      return count.count > window.limit ? Math.max(1, Math.ceil((count.windowEnd - now) / 1000)) : undefined;
    },
    async write() {
      if (changed.size === 0) return;
      const keys = [...changed];
      changed.clear();
      const values = keys.map((key) => sql`(${key}, ${counts.get(key)!.windowEnd}, ${counts.get(key)!.count})`);
      await batchSql(db, () => sql`INSERT INTO rate_limits (key, window_end, count) VALUES ${sql.join(values, sql`, `)}
         ON CONFLICT (key) DO UPDATE SET count = excluded.count, window_end = excluded.window_end`).run();
    },
  };
}
