import { overEngine, type AppDatabase } from "../client";
import type { PgDriver } from "./driver";
import { pgEngine } from "./engine";
import { applyPgMigrations } from "./migrate";
import { postgresDriver } from "./postgres-driver";

/** The app's database on a PostgreSQL driver, with db/pg/migrations applied first (on one connection of its own). */
export async function overPgDriver(driver: PgDriver): Promise<AppDatabase> {
  const { connection, release } = await driver.reserve();
  try {
    await applyPgMigrations({ exec: (text) => connection.exec(text), query: async <Row>(text: string, params: unknown[] = []) => ({ rows: (await connection.query(text, params, "objects")).rows as Row[] }) });
  } finally {
    release();
  }
  return overEngine(pgEngine(driver));
}

/** The app's database on the PostgreSQL server at `url` (postgres://…), migrated. */
export function openPostgres(url: string): Promise<AppDatabase> {
  return overPgDriver(postgresDriver(url));
}
