import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { preparedOnce } from "@/lib/store/statements";
import { auditHash } from "../audit/log";

// Fixed-window counters in SQLite (table rate_limits, migration 0015), so every worker process, every
// thread and the next start see the same counts: joins per address, per client and per waitlist
// (../joining/limits.ts), confirmation emails per address (../verification/email-limit.ts) and used
// proof-of-work solutions (../verification/challenge.ts). A key's window starts with its first hit
// and lasts `windowMs`; a hit after it starts a new one. Windows that ended are deleted through the
// index on window_end, at most PRUNE_BATCH of them every PRUNE_EVERY_MS per connection (so a prune
// never holds up a join for long), and the table holds only the counters of the last hour or so. Each hit is a write: call it inside the caller's transaction (the
// join thread's group commit) or let it run alone.

const PRUNE_EVERY_MS = 1_000;
const PRUNE_BATCH = 5_000;
const lastPruned = new WeakMap<AppDatabase["$client"], number>();

export interface LimitWindow {
  limit: number;
  windowMs: number;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "limits.counter", () => ({
    // Raw: one upsert whose two CASEs must read the same old row. In the UPDATE every right-hand side reads the row as it was, so both CASEs test the old window.
    hit: db.$client.prepare<{ key: string; now: number; end: number }, { count: number; windowEnd: number }>(
      `INSERT INTO rate_limits (key, window_end, count) VALUES (@key, @end, 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN window_end <= @now THEN 1 ELSE count + 1 END,
         window_end = CASE WHEN window_end <= @now THEN @end ELSE window_end END
       RETURNING count, window_end AS windowEnd`,
    ),
    // Raw: Drizzle's builder has no INDEXED BY.
    prune: db.$client.prepare<[number, number]>(
      "DELETE FROM rate_limits WHERE key IN (SELECT key FROM rate_limits INDEXED BY rate_limits_window_end_idx WHERE window_end <= ? LIMIT ?)",
    ),
  }));
}

/**
 * Counts one hit for `key`: undefined while its window has had at most `limit` hits, else the
 * seconds until the window ends (for Retry-After). A refused hit is counted too.
 */
export function hitLimit(key: string, window: LimitWindow, now = Date.now(), db: AppDatabase = getDb()): number | undefined {
  const prepared = statements(db);
  const pruned = lastPruned.get(db.$client);
  if (pruned === undefined || now - pruned >= PRUNE_EVERY_MS || now < pruned) {
    lastPruned.set(db.$client, now);
    prepared.prune.run(now, PRUNE_BATCH);
  }
  const { count, windowEnd } = prepared.hit.get({ key, now, end: now + window.windowMs })!;
  return count > window.limit ? Math.max(1, Math.ceil((windowEnd - now) / 1000)) : undefined;
}

/** How a person (an address, a client address) appears in a limit's key: a keyed hash, 128 bits, never the text itself. */
export function personKey(text: string, db: AppDatabase = getDb()): string {
  return auditHash(text.trim(), db).slice(0, 32);
}
