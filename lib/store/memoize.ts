import { sql } from "drizzle-orm";
import type { AppDatabase } from "@/db/client";
import { preparedOnce, preparedSql } from "@/lib/store/statements";

const MAX_ENTRIES = 500;
const MAX_AGE_MS = 60_000;

interface Entry {
  version: string;
  storedAt: number;
  value: unknown;
}

const caches = new WeakMap<object, Map<string, Entry>>();
/** The computations under way, by key, with the version each counts at. */
const underWay = new WeakMap<object, Map<string, { version: string; value: Promise<unknown> }>>();

/**
 * Where PostgreSQL stands: its WAL position, which every write of a logged table moves (committed, or
 * under way; the UNLOGGED rate_limits never does), the replayed one on a standby. A connection pool
 * shares the cache, so a transaction that has written (an xid assigned) sees its own rows where
 * others do not: it gets no version, and counts. So does one whose snapshot may be older than the
 * position (REPEATABLE READ or SERIALIZABLE, as a database's default_transaction_isolation may make
 * every transaction): only under READ COMMITTED does each statement see every commit so far.
 */
async function pgDatabaseVersion(db: AppDatabase): Promise<string | undefined> {
  const row = await preparedSql<{ lsn: string; own: boolean }>(
    db,
    "memoize.pgVersion",
    () => sql`SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END)::text AS lsn,
       txid_current_if_assigned() IS NOT NULL OR current_setting('transaction_isolation') <> 'read committed' AS own`,
  ).get();
  return row!.own ? undefined : row!.lsn;
}

/**
 * Where the database stands: on SQLite `data_version` moves when another connection commits, and
 * `total_changes()` when this one writes; on PostgreSQL, pgDatabaseVersion. Equal versions mean every
 * count is still right; none means count now.
 */
async function databaseVersion(db: AppDatabase): Promise<string | undefined> {
  if (db.$engine.kind === "postgres") return await pgDatabaseVersion(db);
  const version = preparedOnce(db, "sqlite.version", () =>
    db.select({ dataVersion: sql<number>`data_version`, ownChanges: sql<number>`total_changes()` }).from(sql`pragma_data_version`).prepare(),
  );
  const { dataVersion, ownChanges } = (await version.get())!;
  return `${dataVersion}:${ownChanges}`;
}

/**
 * Memoizes an expensive aggregate (counts over a million rows) until the database changes, for
 * at most a minute. Paging through a big list then recounts nothing, and the parts of one page that
 * count the same rows count them once: on PostgreSQL they run side by side, so a count under way is
 * shared by the callers that ask for it at the same version (four copies of one capped count of a 10M
 * list ran at once, 0.5–0.9 s each). Errors are never kept: those waiting for the count get its error,
 * and the next caller counts again.
 */
export async function memoizeWhileUnchanged<T>(db: AppDatabase, key: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
  let cache = caches.get(db.$engine);
  if (!cache) caches.set(db.$engine, (cache = new Map()));
  const version = await databaseVersion(db);
  if (version === undefined) return compute();
  const hit = cache.get(key);
  if (hit && hit.version === version && now - hit.storedAt < MAX_AGE_MS) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.value as T;
  }
  let running = underWay.get(db.$engine);
  if (!running) underWay.set(db.$engine, (running = new Map()));
  const shared = running.get(key);
  if (shared && shared.version === version) return (await shared.value) as T;
  const value = compute();
  const entry = { version, value };
  running.set(key, entry);
  try {
    const computed = await value;
    cache.delete(key);
    cache.set(key, { version, storedAt: now, value: computed });
    if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    return computed;
  } finally {
    if (running.get(key) === entry) running.delete(key);
  }
}
