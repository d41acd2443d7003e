import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { coalescedHits } from "./coalesced-hits";
import { countHit, countHitUnlessGuarded, peekCount, personKey, type WindowCount } from "./counter";
import { holdLease } from "./leases";

// The request limits (lib/http/limits.ts: per API key, failures per address, per dashboard session,
// export slots, the import lock) kept in the database, where every app server on it counts together.
// On PostgreSQL only: there several servers share one database, and a limit check is one upsert. On
// SQLite (one machine) they stay in each process's memory: 0.5–3 µs a /v1 check instead of 45–90 µs
// through rate_limits, and no write per read queued behind the one writer (tests/bench/load/limit-hits.ts).
// A key is stored as its keyed hash (./counter.ts, personKey): never an address, a session or a key
// id in the clear.

/** What lib/http/limits.ts keeps in the database (it names the type; this module gives it). */
export interface SharedLimitStore {
  hit(key: string, windowMs: number, now: number): Promise<WindowCount>;
  peek(key: string, now: number): Promise<WindowCount | undefined>;
  hitUnlessGuarded(key: string, windowMs: number, guard: { key: string; limit: number }, now: number): Promise<WindowCount | undefined>;
  hold(key: string, leaseMs: number): Promise<(() => Promise<void>) | null>;
}

/** The limits of `db` in its tables, each counter's concurrent hits sent together (./coalesced-hits.ts). Not for a caller's transaction: a hit may go out in another caller's statement. */
export function databaseLimitStore(db: AppDatabase): SharedLimitStore {
  const stored = async (key: string) => `limit ${await personKey(key, db)}`;
  // A counter: its key, its window and, for a guarded hit, the guard's key and limit.
  type Counter = { key: string; windowMs: number; guard?: { key: string; limit: number } };
  const hit = coalescedHits<Counter>(
    ({ key, windowMs, guard }) => JSON.stringify([key, windowMs, guard?.key, guard?.limit]),
    async ({ key, windowMs, guard }, hits, now) =>
      guard
        ? await countHitUnlessGuarded(await stored(key), windowMs, { key: await stored(guard.key), limit: guard.limit }, now, db, hits)
        : await countHit(await stored(key), windowMs, now, db, hits),
  );
  return {
    hit: async (key, windowMs, now) => (await hit({ key, windowMs }, now))!,
    peek: async (key, now) => await peekCount(await stored(key), now, db),
    hitUnlessGuarded: async (key, windowMs, guard, now) => await hit({ key, windowMs, guard }, now),
    hold: async (key, leaseMs) => await holdLease(`lease ${await personKey(key, db)}`, leaseMs, db),
  };
}

const stores = new WeakMap<object, SharedLimitStore>();

/** Where the app's limits are shared: the database on PostgreSQL; undefined on SQLite (each process's memory). */
export function sharedLimitStore(given?: AppDatabase): SharedLimitStore | undefined {
  // SQLite's file is not opened for this: one that cannot be opened is the request's to report.
  if (!given && !env().DATABASE_URL) return undefined;
  const db = given ?? getDb();
  if (db.$engine.kind !== "postgres") return undefined;
  let store = stores.get(db.$engine);
  if (!store) stores.set(db.$engine, (store = databaseLimitStore(db)));
  return store;
}
