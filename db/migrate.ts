import type Database from "better-sqlite3";
import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import { normalizeStoredWebsite } from "@/lib/core/website";

// drizzle's own journal table, created and filled exactly as drizzle-orm's migrate() does
// (sqlite-core/dialect.js), so databases migrated before keep working and nothing re-runs.
const JOURNAL = "__drizzle_migrations";
const CREATE_JOURNAL = `CREATE TABLE IF NOT EXISTS "${JOURNAL}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`;

/**
 * Applies the pending migrations of `migrationsFolder` in one transaction that holds the write lock
 * (BEGIN IMMEDIATE) from before it reads the journal: a second process opening the same new file
 * waits (busy_timeout) and then finds them applied. Call it with foreign keys OFF on `sqlite`:
 * inside a transaction `PRAGMA foreign_keys` is a no-op, so the `DROP TABLE` of a drizzle-kit table
 * rebuild would otherwise cascade-delete every child row. Foreign keys are checked before the
 * commit instead; any violation rolls everything back.
 */
export function applyMigrations(sqlite: Database.Database, migrationsFolder: string): void {
  const migrations = readMigrationFiles({ migrationsFolder });
  // Up to date (the usual case): no write lock, so opening never waits for an import to commit.
  if (pendingMigrations(sqlite, migrations).length === 0) return;
  registerMigrationFunctions(sqlite);
  sqlite
    .transaction(() => {
      sqlite.exec(CREATE_JOURNAL);
      // Another process may have applied them while this one waited for the lock.
      const pending = pendingMigrations(sqlite, migrations);
      if (pending.length === 0) return;
      // Raw: the migration files' own SQL, then drizzle's journal, which is outside the schema.
      for (const migration of pending) {
        for (const statement of migration.sql) sqlite.prepare(statement).run();
        sqlite.prepare(`INSERT INTO "${JOURNAL}" ("hash", "created_at") VALUES (?, ?)`).run(migration.hash, migration.folderMillis);
      }
      assertNoForeignKeyViolations(sqlite);
    })
    .immediate();
}

/**
 * The application functions that data migrations call where SQL alone cannot do the work (0004:
 * normalize_website). Whatever runs the migrations must register them first: drizzle-kit's own
 * `migrate` cannot, so migrate with the app or `npm run cli -- db migrate`.
 */
export function registerMigrationFunctions(sqlite: Database.Database): void {
  sqlite.function("normalize_website", { deterministic: true }, (value: unknown) => (typeof value === "string" ? normalizeStoredWebsite(value) : value));
}

/** drizzle's rule: every migration newer than the newest one recorded. Raw: drizzle's journal table is outside the schema, read as its migrator does. */
function pendingMigrations(sqlite: Database.Database, migrations: MigrationMeta[]): MigrationMeta[] {
  const hasJournal = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(JOURNAL) !== undefined;
  const newest = hasJournal
    ? (sqlite.prepare(`SELECT created_at FROM "${JOURNAL}" ORDER BY created_at DESC LIMIT 1`).get() as { created_at: number | string } | undefined)
    : undefined;
  return newest === undefined ? migrations : migrations.filter((migration) => Number(newest.created_at) < migration.folderMillis);
}

interface ForeignKeyViolation {
  table: string;
  rowid: number | null;
  parent: string;
}

// Raw: a PRAGMA, which Drizzle's builder has no form for.
function assertNoForeignKeyViolations(sqlite: Database.Database): void {
  const shown: string[] = [];
  let count = 0;
  for (const violation of sqlite.prepare("PRAGMA foreign_key_check").iterate() as Iterable<ForeignKeyViolation>) {
    count++;
    if (shown.length < 10) shown.push(`${violation.table} rowid ${violation.rowid ?? "?"} → ${violation.parent}`);
  }
  if (count === 0) return;
  const more = count > shown.length ? `; and ${count - shown.length} more` : "";
  throw new Error(`migration rolled back: it would leave ${count} foreign-key violations: ${shown.join("; ")}${more}`);
}
