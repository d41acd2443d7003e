import { randomBytes } from "node:crypto";
import { overEngine, type AppDatabase } from "../client";
import { appSecretAad, sealBlob } from "../sealed-secret";
import type { PgDriver } from "./driver";
import { pgEngine } from "./engine";
import { applyPgMigrations } from "./migrate";
import { postgresDriver } from "./postgres-driver";

/** The app's database on a PostgreSQL driver, with db/pg/migrations applied first (on one connection of its own). */
export async function overPgDriver(driver: PgDriver): Promise<AppDatabase> {
  const { connection, release } = await driver.reserve();
  try {
    await applyPgMigrations({ exec: (text) => connection.exec(text), query: async <Row>(text: string, params: unknown[] = []) => ({ rows: (await connection.query(text, params, "objects")).rows as Row[] }) });
    // SQLite's migration 0005 makes the audit log's hashing key; here it is made sealed from the start
    // (no plain copy ever stored). The first server to open the database makes it; the others keep it.
    await connection.query("INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", ["audit_hash_key", sealBlob(driver.location, randomBytes(32), appSecretAad("audit_hash_key"))], "arrays");
  } finally {
    release();
  }
  return overEngine(pgEngine(driver));
}

/** The app's database on the PostgreSQL server at `url` (postgres://…), migrated. */
export function openPostgres(url: string): Promise<AppDatabase> {
  return overPgDriver(postgresDriver(url));
}
