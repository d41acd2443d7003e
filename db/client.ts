import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { env } from "@/lib/env";
import * as schema from "./schema";

export type AppDatabase = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const migrationsFolder = join(process.cwd(), "db", "migrations");

/**
 * Opens (creating when missing) a SQLite file with WAL, a busy timeout and
 * foreign keys, and applies pending migrations. Safe to call on an up-to-date file.
 */
export function openDatabase(path: string): AppDatabase {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  // With WAL, NORMAL is durable across application crashes; only a power cut can lose the last commits.
  sqlite.pragma("synchronous = NORMAL");
  // Statement journals in memory: with a trigger on signups (signup_counts) every inserted row opens
  // one, and past 64 KB SQLite spills it to a temporary file, which made a bulk import 3× slower.
  sqlite.pragma("temp_store = MEMORY");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder });
  return db;
}

// Next.js may evaluate this module once per route bundle: keep one connection per process.
const holder = globalThis as typeof globalThis & { __waitlistDb?: AppDatabase };

/** The app's database, opened on first use (so `next build` never creates one). */
export function getDb(): AppDatabase {
  holder.__waitlistDb ??= openDatabase(env().DATABASE_PATH);
  return holder.__waitlistDb;
}
