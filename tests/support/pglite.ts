import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { AppDatabase } from "@/db/client";
import { VALUE_PARSERS, type PgConnection, type PgDriver } from "@/db/pg/driver";
import { overPgDriver } from "@/db/pg/client";
import { applyPgMigrations } from "@/db/pg/migrate";

const MIGRATIONS = join(process.cwd(), "db", "pg", "migrations");
const SNAPSHOT_PREFIX = "waitlist-pglite-";

/** A name for the migrated data directory of this PGlite and these migrations. */
function snapshotPath(): string {
  const hash = createHash("sha256").update(readFileSync(join(process.cwd(), "node_modules", "@electric-sql", "pglite", "package.json")));
  for (const file of readdirSync(MIGRATIONS).sort()) if (file.endsWith(".sql")) hash.update(file).update(readFileSync(join(MIGRATIONS, file)));
  return join(tmpdir(), `${SNAPSHOT_PREFIX}${hash.digest("hex").slice(0, 16)}.tar`);
}

/**
 * An in-memory PostgreSQL (PGlite) with db/pg/migrations applied. A fresh one spends most of its start
 * in initdb (5–10 s on a busy machine); so the first migrated data directory is kept in the temporary
 * folder and later ones load it (about 2 s). Share one per test file.
 */
export async function migratedPglite(): Promise<PGlite> {
  const path = snapshotPath();
  if (existsSync(path)) {
    const pg = await PGlite.create({ extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(path)]) });
    await applyPgMigrations(pg, MIGRATIONS);
    return pg;
  }
  const pg = await PGlite.create({ extensions: { pg_trgm } });
  await applyPgMigrations(pg, MIGRATIONS);
  const snapshot = Buffer.from(await (await pg.dumpDataDir("none")).arrayBuffer());
  // Those of earlier migrations or PGlite versions go.
  for (const file of readdirSync(tmpdir())) if (file.startsWith(SNAPSHOT_PREFIX) && file.endsWith(".tar")) rmSync(join(tmpdir(), file), { force: true });
  // Written aside and renamed: another test file starting at once never loads half of it.
  writeFileSync(`${path}.${process.pid}`, snapshot);
  renameSync(`${path}.${process.pid}`, path);
  return pg;
}

type PgliteSession = Pick<PGlite, "query" | "exec">;

// The driver's `bytes` rows: each column's text as PostgreSQL sends it, for the types the app selects
// (PGlite parses these itself otherwise).
const TEXT_TYPES = [16, 20, 21, 23, 25, 700, 701, 1043, 1700, 114, 3802];
const AS_BYTES = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, (text: string) => Buffer.from(text)]));

function pgliteConnection(session: PgliteSession): PgConnection {
  return {
    query: async (text, params, rows) => {
      const parsers = rows === "bytes" ? AS_BYTES : VALUE_PARSERS;
      const result = await session.query(text, [...params], { rowMode: rows === "objects" ? "object" : "array", parsers }).catch((error: unknown) => {
        // Which statement failed, for the test's report (PostgreSQL's own error names none; the values stay out).
        if (error instanceof Error) error.message += `\n  in: ${text}`;
        throw error;
      });
      return { rows: result.rows, count: result.affectedRows ?? result.rows.length };
    },
    exec: async (text) => {
      await session.exec(text);
    },
  };
}

/**
 * PGlite as the PostgreSQL engine's driver (db/pg/driver.ts): one connection. Its own transaction()
 * runs one transaction at a time and makes every other statement wait until it ends.
 */
export function pgliteDriver(pg: PGlite): PgDriver {
  const connection = pgliteConnection(pg);
  return {
    ...connection,
    transaction: (first, work) =>
      pg.transaction(async (tx) => {
        if (first) await tx.query(first);
        return await work(pgliteConnection(tx));
      }),
    reserve: () => Promise.resolve({ connection, release: () => {} }),
    location: ":memory:",
    close: () => pg.close(),
  };
}

/** The app's database on a migrated PGlite: the PostgreSQL engine, for tests that run the domain on both engines. */
export async function pgliteDatabase(): Promise<AppDatabase> {
  return overPgDriver(pgliteDriver(await migratedPglite()));
}
