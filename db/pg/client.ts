import { randomBytes } from "node:crypto";
import { overEngine, type AppDatabase } from "../app-database";
import { appSecretAad, sealBlob } from "../sealed-secret";
import type { PgDriver } from "./driver";
import { pgEngine } from "./engine";
import { applyPgMigrations } from "./migrate";
import { postgresDriver } from "./postgres-driver";

async function prepareDatabase(driver: PgDriver): Promise<void> {
  const { connection, release } = await driver.reserve();
  try {
    await applyPgMigrations({ exec: (text) => connection.exec(text), query: async <Row>(text: string, params: unknown[] = []) => ({ rows: (await connection.query(text, params, "objects")).rows as Row[] }) });
    // SQLite's migration 0005 makes the audit log's hashing key; here it is made sealed from the start
    // (no plain copy ever stored). The first server to open the database makes it; the others keep it.
    await connection.query("INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", ["audit_hash_key", sealBlob(driver.location, randomBytes(32), appSecretAad("audit_hash_key"))], "arrays");
  } finally {
    release();
  }
}

/**
 * The driver, its statements and transactions held until the database is prepared (migrated, its
 * audit key made), as SQLite's file is on opening. A preparation that fails (the server unreachable
 * for a moment) is tried again by the next statement rather than remembered.
 */
function preparedFirst(driver: PgDriver): PgDriver {
  let ready: Promise<void> | undefined;
  const whenReady = () =>
    (ready ??= prepareDatabase(driver).catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  return {
    query: async (text, params, rows) => (await whenReady(), await driver.query(text, params, rows)),
    exec: async (text) => (await whenReady(), await driver.exec(text)),
    transaction: async (first, work) => (await whenReady(), await driver.transaction(first, work)),
    reserve: () => driver.reserve(),
    location: driver.location,
    close: () => driver.close(),
  };
}

/** The app's database on a PostgreSQL driver, prepared before its first statement runs. Opening never waits: getDb() is synchronous. */
export function connectPgDriver(driver: PgDriver): AppDatabase {
  return overEngine(pgEngine(preparedFirst(driver)));
}

/** The app's database on the PostgreSQL server at `url` (postgres://…): see connectPgDriver. */
export function connectPostgres(url: string): AppDatabase {
  return connectPgDriver(postgresDriver(url));
}

/** connectPgDriver, prepared now: a database that cannot be migrated fails here, and its driver is closed. */
export async function overPgDriver(driver: PgDriver): Promise<AppDatabase> {
  const db = connectPgDriver(driver);
  try {
    await db.$engine.prepare("SELECT 1").get([]);
  } catch (error) {
    await driver.close();
    throw error;
  }
  return db;
}

/** The app's database on the PostgreSQL server at `url`, migrated. */
export function openPostgres(url: string): Promise<AppDatabase> {
  return overPgDriver(postgresDriver(url));
}
