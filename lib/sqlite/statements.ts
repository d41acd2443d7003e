import type { AppDatabase } from "@/db/client";

const caches = new WeakMap<AppDatabase["$client"], Map<string, unknown>>();

/**
 * A statement built once per connection and name. Drizzle's query builder otherwise rebuilds the
 * SQL text and has SQLite compile it again on every call, which on a hot path (the key and
 * waitlist lookups of every /v1 request) costs more than running it.
 */
export function preparedOnce<T>(db: AppDatabase, name: string, prepare: () => T): T {
  let cache = caches.get(db.$client);
  if (!cache) caches.set(db.$client, (cache = new Map()));
  if (!cache.has(name)) cache.set(name, prepare());
  return cache.get(name) as T;
}
