import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { connectionOf } from "@/lib/store/connection";
import { preparedSql } from "@/lib/store/statements";
import { auditHash } from "../audit/log";

// Fixed-window counters in the database (table rate_limits, migration 0015; UNLOGGED on PostgreSQL,
// db/pg/migrations/0001), so every server, worker process, thread and the next start see the same
// counts: joins per address, per client and per waitlist (../joining/limits.ts), confirmation emails
// per address (../verification/email-limit.ts), used proof-of-work solutions
// (../verification/challenge.ts) and, on PostgreSQL, the request limits and leases (./shared.ts,
// ./leases.ts). A key's window starts with its first hit and lasts `windowMs`; a hit after it starts
// a new one. Windows that ended are deleted through the index on window_end, at most PRUNE_BATCH of
// them every PRUNE_EVERY_MS per connection (so a prune never holds up a join for long), and the table
// holds only the counters of the last hour or so. Each hit is a write: call it inside the caller's
// transaction (the join thread's group commit) or let it run alone.

const PRUNE_EVERY_MS = 1_000;
const PRUNE_BATCH = 5_000;
const lastPruned = new WeakMap<object, number>();
const placeholder = sql.placeholder;

export interface LimitWindow {
  limit: number;
  windowMs: number;
}

// In SQL: one upsert of `hits` hits whose two CASEs must read the same old row. In the UPDATE every right-hand side reads the row as it was, so both CASEs test the old window.
function hitStatement(db: AppDatabase) {
  return preparedSql<{ count: number; windowEnd: number }>(
    db,
    "limits.counter.hit",
    (d) => sql`INSERT INTO rate_limits (key, window_end, count) VALUES (${placeholder("key")}, ${placeholder("end")}, ${d.typed(placeholder("hits"), "bigint")})
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_end <= ${placeholder("now")} THEN excluded.count ELSE rate_limits.count + excluded.count END,
         window_end = CASE WHEN rate_limits.window_end <= ${placeholder("now")} THEN ${placeholder("end")} ELSE rate_limits.window_end END
       RETURNING count, window_end AS windowEnd`,
  );
}

// In SQL: Drizzle's builder has no INDEXED BY.
function pruneStatement(db: AppDatabase) {
  return preparedSql(
    db,
    "limits.counter.prune",
    (d) => sql`DELETE FROM rate_limits WHERE key IN (SELECT key FROM rate_limits ${d.indexedBy("rate_limits_window_end_idx")} WHERE window_end <= ${placeholder("ended")} LIMIT ${placeholder("batch")})`,
  );
}

/** A key's current window: the hits counted in it and when it ends (ms since the epoch). */
export interface WindowCount {
  count: number;
  windowEnd: number;
}

/** Deletes ended windows, at most once every PRUNE_EVERY_MS per connection. */
export async function pruneNowAndThen(now: number, db: AppDatabase): Promise<void> {
  const pruned = lastPruned.get(connectionOf(db));
  if (pruned === undefined || now - pruned >= PRUNE_EVERY_MS || now < pruned) {
    lastPruned.set(connectionOf(db), now);
    await pruneStatement(db).run({ ended: now, batch: PRUNE_BATCH });
  }
}

/** Counts `hits` hits (one unless told) for `key` in its window of `windowMs` (opened by them when none is running): the window's hits so far, these included. */
export async function countHit(key: string, windowMs: number, now = Date.now(), db: AppDatabase = getDb(), hits = 1): Promise<WindowCount> {
  await pruneNowAndThen(now, db);
  return (await hitStatement(db).get({ key, now, end: now + windowMs, hits }))!;
}

// In SQL: hitStatement's upsert from a SELECT that finds no row while the guard's window holds `guardLimit` hits or more.
function guardedHitStatement(db: AppDatabase) {
  return preparedSql<WindowCount>(
    db,
    "limits.counter.guardedHit",
    (d) => sql`INSERT INTO rate_limits (key, window_end, count)
       SELECT ${d.typed(placeholder("key"), "text")}, ${d.typed(placeholder("end"), "bigint")}, ${d.typed(placeholder("hits"), "bigint")}
       WHERE NOT EXISTS (SELECT 1 FROM rate_limits WHERE key = ${placeholder("guard")} AND window_end > ${placeholder("now")} AND count >= ${placeholder("guardLimit")})
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_end <= ${placeholder("now")} THEN excluded.count ELSE rate_limits.count + excluded.count END,
         window_end = CASE WHEN rate_limits.window_end <= ${placeholder("now")} THEN ${placeholder("end")} ELSE rate_limits.window_end END
       RETURNING count, window_end AS windowEnd`,
  );
}

/**
 * countHit, unless the counter `guard.key` has had `guard.limit` hits or more in its running window:
 * then nothing is counted, and undefined says so. One statement (one round trip to PostgreSQL).
 */
export async function countHitUnlessGuarded(
  key: string,
  windowMs: number,
  guard: { key: string; limit: number },
  now = Date.now(),
  db: AppDatabase = getDb(),
  hits = 1,
): Promise<WindowCount | undefined> {
  await pruneNowAndThen(now, db);
  return await guardedHitStatement(db).get({ key, now, end: now + windowMs, guard: guard.key, guardLimit: guard.limit, hits });
}

/** `key`'s running window without counting a hit; undefined when none runs. */
export async function peekCount(key: string, now = Date.now(), db: AppDatabase = getDb()): Promise<WindowCount | undefined> {
  return await preparedSql<WindowCount>(
    db,
    "limits.counter.peek",
    () => sql`SELECT count, window_end AS windowEnd FROM rate_limits WHERE key = ${placeholder("key")} AND window_end > ${placeholder("now")}`,
  ).get({ key, now });
}

/**
 * Counts one hit for `key`: undefined while its window has had at most `limit` hits, else the
 * seconds until the window ends (for Retry-After). A refused hit is counted too.
 */
export async function hitLimit(key: string, window: LimitWindow, now = Date.now(), db: AppDatabase = getDb()): Promise<number | undefined> {
  const { count, windowEnd } = await countHit(key, window.windowMs, now, db);
  return count > window.limit ? Math.max(1, Math.ceil((windowEnd - now) / 1000)) : undefined;
}

/** How a person (an address, a client address) appears in a limit's key: a keyed hash, 128 bits, never the text itself. */
export async function personKey(text: string, db: AppDatabase = getDb()): Promise<string> {
  return (await auditHash(text.trim(), db)).slice(0, 32);
}
