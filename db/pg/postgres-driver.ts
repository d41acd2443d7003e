import postgres from "postgres";
import { withoutPassword } from "@/lib/core/database-url";
import { VALUE_PARSERS, type PgConnection, type PgDriver } from "./driver";

function connection(sql: Pick<postgres.Sql, "unsafe">): PgConnection {
  return {
    query: async (text, params, rows) => {
      // Prepared once per connection (postgres.js names each statement by its text).
      const query = sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
      // raw(): each column's bytes as received, never made a string (a long text stays out of the JavaScript heap).
      const result = rows === "arrays" ? await query.values() : rows === "bytes" ? await query.raw() : await query;
      return { rows: result, count: result.count };
    },
    exec: async (text) => {
      await sql.unsafe(text).simple();
    },
  };
}

/** How many connections a pool opens at most, unless told. */
export const POOL_CONNECTIONS = 10;

/** A pool of postgres.js connections to `url` (a multi-host URL with `target_session_attrs=primary` follows a failover). */
export function postgresDriver(url: string, options: { max?: number } = {}): PgDriver {
  const sql = postgres(url, {
    max: options.max ?? POOL_CONNECTIONS,
    // After a failover the new primary answers within seconds: retry connecting at a steady pace
    // (postgres.js's default backoff grows towards 20 s, past the promise of writes back within 20 s).
    connect_timeout: 5,
    backoff: (attempt: number) => Math.min(0.1 * attempt, 1),
    onnotice: () => {},
    connection: { application_name: "waitlist-admin" },
    types: Object.fromEntries(
      Object.entries(VALUE_PARSERS).map(([oid, parse]) => [`oid${oid}`, { to: Number(oid), from: [Number(oid)], serialize: (value: unknown) => String(value), parse }]),
    ),
  });
  return {
    ...connection(sql),
    transaction: (first, work) =>
      sql.begin(async (tx) => {
        if (first) await tx.unsafe(first);
        return await work(connection(tx as unknown as Pick<postgres.Sql, "unsafe">));
      }) as Promise<Awaited<ReturnType<typeof work>>>,
    reserve: async () => {
      const reserved = await sql.reserve();
      return { connection: connection(reserved), release: () => reserved.release() };
    },
    location: withoutPassword(url),
    close: () => sql.end({ timeout: 5 }),
  };
}
