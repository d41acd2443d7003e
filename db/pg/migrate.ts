import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * What the migrator needs of one PostgreSQL connection: PGlite as it is, or a reserved postgres.js
 * connection behind a small adapter. One connection, because the migrations run in one transaction.
 */
export interface PgSession {
  /** Runs one or more statements (the simple protocol), as a migration file holds them. */
  exec(sql: string): Promise<unknown>;
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

const defaultMigrationsFolder = join(process.cwd(), "db", "pg", "migrations");
const JOURNAL = "pg_migrations";
// Held for the transaction: a second process migrating the same database waits, then finds them applied.
const LOCK_KEY = 3_400_000_001;

interface Migration {
  name: string;
  sql: string;
  hash: string;
}

/** The folder's `NNNN_name.sql` files in the order of their names. */
function readMigrations(folder: string): Migration[] {
  return readdirSync(folder)
    .filter((file) => /^\d{4}_.+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = readFileSync(join(folder, file), "utf8");
      return { name: file.slice(0, -".sql".length), sql, hash: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies the migrations of `folder` not yet recorded in `pg_migrations`, in one transaction, and
 * returns their names ("read-only" when the database takes no writes and is up to date). A recorded migration whose file has changed since stops it: a file is never
 * edited once applied, a new one is added instead.
 */
export async function applyPgMigrations(session: PgSession, folder = defaultMigrationsFolder): Promise<string[] | "read-only"> {
  const migrations = readMigrations(folder);
  if (await isReadOnly(session)) return await checkApplied(session, migrations);
  await session.exec("BEGIN");
  try {
    await session.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
    await session.exec(`CREATE TABLE IF NOT EXISTS ${JOURNAL} (name text PRIMARY KEY, hash text NOT NULL, applied_at bigint NOT NULL)`);
    const { rows } = await session.query<{ name: string; hash: string }>(`SELECT name, hash FROM ${JOURNAL}`);
    const applied = new Map(rows.map((row) => [row.name, row.hash]));
    const pending: string[] = [];
    for (const migration of migrations) {
      const hash = applied.get(migration.name);
      if (hash !== undefined) {
        if (hash !== migration.hash) throw new Error(`PostgreSQL migration ${migration.name} was changed after it was applied`);
        continue;
      }
      await session.exec(migration.sql);
      await session.query(`INSERT INTO ${JOURNAL} (name, hash, applied_at) VALUES ($1, $2, $3)`, [migration.name, migration.hash, Date.now()]);
      pending.push(migration.name);
    }
    await session.exec("COMMIT");
    return pending;
  } catch (error) {
    await session.exec("ROLLBACK");
    throw error;
  }
}

async function isReadOnly(session: PgSession): Promise<boolean> {
  const { rows } = await session.query<{ transaction_read_only: string }>("SHOW transaction_read_only");
  return rows[0]?.transaction_read_only === "on";
}

/**
 * A database that takes no writes (a standby, or one set read-only) is served for reading when it is
 * up to date: its migrations are checked, not applied. One that is not says where to migrate it.
 */
async function checkApplied(session: PgSession, migrations: Migration[]): Promise<"read-only"> {
  const { rows: journal } = await session.query<{ present: boolean }>(`SELECT to_regclass('${JOURNAL}') IS NOT NULL AS present`);
  const { rows } = journal[0]?.present ? await session.query<{ name: string; hash: string }>(`SELECT name, hash FROM ${JOURNAL}`) : { rows: [] };
  const applied = new Map(rows.map((row) => [row.name, row.hash]));
  const pending = migrations.filter((migration) => applied.get(migration.name) !== migration.hash).map((migration) => migration.name);
  if (pending.length > 0) throw new Error(`the database takes no writes (a standby?) and its migrations are not all applied (${pending.join(", ")}): run \`npm run cli -- db migrate\` against the primary`);
  return "read-only";
}
