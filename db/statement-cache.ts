/**
 * Statements kept per connection. Filter shapes × page positions × `fields` choices make thousands
 * of possible statements (about 23 KB each): the least recently used ones beyond this are dropped
 * (better-sqlite3 finalizes a statement once nothing references it), so a client cycling through
 * shapes cannot grow the cache without end.
 */
export const MAX_CACHED_STATEMENTS = 1000;

/** The statement kept under `key`, made once (and made again after it was dropped as least recently used). */
export function cachedStatement<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let statement = cache.get(key);
  if (statement === undefined) {
    statement = make();
    if (cache.size >= MAX_CACHED_STATEMENTS) cache.delete(cache.keys().next().value!);
  } else {
    cache.delete(key);
  }
  cache.set(key, statement);
  return statement;
}
