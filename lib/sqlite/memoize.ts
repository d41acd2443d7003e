import { sql } from "drizzle-orm";
import type { AppDatabase } from "@/db/client";
import { preparedOnce } from "@/lib/store/statements";

const MAX_ENTRIES = 500;
const MAX_AGE_MS = 60_000;

interface Entry {
  version: string;
  storedAt: number;
  value: unknown;
}

const caches = new WeakMap<object, Map<string, Entry>>();

/**
 * Where the database stands: `data_version` moves when another connection commits, and
 * `total_changes()` when this one writes. Equal versions mean every count is still right.
 */
async function databaseVersion(db: AppDatabase): Promise<string> {
  const version = preparedOnce(db, "sqlite.version", () =>
    db.select({ dataVersion: sql<number>`data_version`, ownChanges: sql<number>`total_changes()` }).from(sql`pragma_data_version`).prepare(),
  );
  const { dataVersion, ownChanges } = (await version.get())!;
  return `${dataVersion}:${ownChanges}`;
}

/**
 * Memoizes an expensive aggregate (counts over a million rows) until the database changes, for
 * at most a minute. Paging through a big list then recounts nothing. Errors are never cached.
 * PostgreSQL has no such version of the whole database: there, every call counts.
 */
export async function memoizeWhileUnchanged<T>(db: AppDatabase, key: string, compute: () => Promise<T>, now = Date.now()): Promise<T> {
  if (db.$engine.kind !== "sqlite") return compute();
  let cache = caches.get(db.$engine);
  if (!cache) caches.set(db.$engine, (cache = new Map()));
  const version = await databaseVersion(db);
  const hit = cache.get(key);
  if (hit && hit.version === version && now - hit.storedAt < MAX_AGE_MS) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.value as T;
  }
  const value = await compute();
  cache.delete(key);
  cache.set(key, { version, storedAt: now, value });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}
