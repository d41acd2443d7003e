import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { generateDrizzleJson, generateMigration, type DrizzleSnapshotJSON } from "drizzle-kit/api";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as mirror from "@/db/pg/schema";
import { pgTables } from "@/drizzle.config";
import { GENERATE_COMMAND, PG_SCHEMA_FILE, pgSchemaSource } from "@/db/pg/generate-schema";
import { migratedPglite } from "@/tests/support/pglite";

// db/pg/schema.ts, the pg-core mirror of db/schema.ts, is what drizzle-kit reads for PostgreSQL
// (drizzle.config.ts with a postgres:// DATABASE_URL). It must be the generator's output for the
// db/schema.ts of now, and describe the database db/pg/migrations build. Triggers, views and functions
// are beyond drizzle-kit: the migrations alone hold them (tests/unit/db/pg/derived-data-parity.test.ts).

let pg: PGlite;
let folder: string;
let dataDir: string;

beforeAll(async () => {
  pg = await migratedPglite();
  // drizzle-kit's CLI opens PGlite by a data directory: a copy of the migrated database on disk.
  folder = mkdtempSync(join(tmpdir(), "waitlist-mirror-"));
  dataDir = join(folder, "data");
  const disk = await PGlite.create({ dataDir, loadDataDir: await pg.dumpDataDir("none"), extensions: { pg_trgm } });
  await disk.close();
}, 60_000);
afterAll(async () => {
  await pg.close();
  rmSync(folder, { recursive: true, force: true });
});

it("db/pg/schema.ts is what db/pg/generate-schema.ts writes for db/schema.ts", () => {
  expect(readFileSync(PG_SCHEMA_FILE, "utf8"), `db/pg/schema.ts is stale: run \`${GENERATE_COMMAND}\``).toBe(pgSchemaSource());
});

/** The statements `drizzle-kit push` would run to make the database the mirror (it prints them, --verbose). */
function pushStatements(): string[] {
  // drizzle.config.ts's PostgreSQL settings, on the copy through PGlite.
  const config = join(folder, "drizzle.config.json");
  writeFileSync(config, JSON.stringify({ dialect: "postgresql", driver: "pglite", schema: PG_SCHEMA_FILE, dbCredentials: { url: dataDir }, tablesFilter: pgTables }));
  const bin = join(process.cwd(), "node_modules", "drizzle-kit", "bin.cjs");
  const run = spawnSync(process.execPath, [bin, "push", "--config", config, "--verbose", "--force"], { encoding: "utf8", timeout: 120_000 });
  if (run.stdout.includes("No changes detected")) return [];
  const printed = run.stdout.split("You are about to execute current statements:")[1];
  if (printed === undefined) throw new Error(`drizzle-kit push printed neither statements nor "No changes detected":\n${run.stdout}\n${run.stderr}`);
  return printed
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.endsWith(";"));
}

/** SQL with its identifiers unquoted and unqualified and its spacing gone, to compare PostgreSQL's text with drizzle-kit's. */
const bare = (text: string) => text.replace(/"|public\.|;$/g, "").replace(/\s+/g, "");

/**
 * drizzle-kit 0.31's push re-creates what it cannot read back, with no change on either side: a composite
 * primary key, whose columns it reads unordered (drizzle-orm issues 6078, 6193), and an index on an
 * expression (issue 6256). Such a pair is churn only when it re-creates exactly what the database has.
 */
async function churn(statements: string[]): Promise<Set<string>> {
  const { rows: keys } = await pg.query<{ name: string; columns: string }>(
    `SELECT c.conname AS name, string_agg(a.attname, ',' ORDER BY k.ord) AS columns
     FROM pg_constraint AS c CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k (attnum, ord)
     JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
     WHERE c.contype = 'p' AND c.connamespace = 'public'::regnamespace GROUP BY c.conname`,
  );
  const { rows: indexes } = await pg.query<{ name: string; definition: string }>(
    "SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = 'public'",
  );
  const primaryKeys = new Map(keys.map((key) => [key.name, key.columns]));
  const indexDefinitions = new Map(indexes.map((index) => [index.name, bare(index.definition)]));
  const allowed = new Set<string>();
  for (const statement of statements) {
    const dropKey = /^ALTER TABLE "(\w+)" DROP CONSTRAINT "(\w+_pkey)";$/.exec(statement);
    if (dropKey) {
      const add = `ALTER TABLE "${dropKey[1]}" ADD CONSTRAINT "${dropKey[2]}" PRIMARY KEY(${primaryKeys.get(dropKey[2]!)?.split(",").map((column) => `"${column}"`).join(",")});`;
      if (statements.includes(add)) allowed.add(statement).add(add);
    }
    const dropIndex = /^DROP INDEX "(\w+)";$/.exec(statement);
    if (dropIndex) {
      const create = statements.find((other) => other.startsWith(`CREATE `) && other.includes(` INDEX "${dropIndex[1]}" `));
      if (create && bare(create) === indexDefinitions.get(dropIndex[1]!)) allowed.add(statement).add(create);
    }
  }
  return allowed;
}

it("drizzle-kit push finds nothing to change between the mirror and a database db/pg/migrations built", async () => {
  // What push compares (0.31): tables, columns (type, nullability, default, identity), primary, foreign
  // and unique keys, indexes (name, columns, uniqueness, method) and the names of checks; not a check's
  // expression nor a partial index's predicate (the catalog test below compares those).
  const statements = pushStatements();
  const allowed = await churn(statements);
  expect(statements.filter((statement) => !allowed.has(statement))).toEqual([]);
}, 120_000);

const MIGRATIONS = join(process.cwd(), "db", "pg", "migrations");

it("drizzle-kit generate drafts nothing: db/pg/migrations' snapshot history ends at the mirror", async () => {
  // `DATABASE_URL=postgres://… npx drizzle-kit generate --name <name>` drafts the next migration from the
  // last snapshot in meta/ (then edited by hand: COLLATE "C", triggers); without meta/ it would draft
  // the whole schema again as a second 0000.
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
  const sqlFiles = readdirSync(MIGRATIONS).filter((file) => file.endsWith(".sql"));
  expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(sqlFiles.sort());
  const last = journal.entries.at(-1)!;
  const snapshot = JSON.parse(readFileSync(join(MIGRATIONS, "meta", `${String(last.idx).padStart(4, "0")}_snapshot.json`), "utf8")) as DrizzleSnapshotJSON;
  const draft = await generateMigration(snapshot, generateDrizzleJson(mirror));
  expect(draft, "db/pg/schema.ts changed without a PostgreSQL migration: run `DATABASE_URL=postgres://… npx drizzle-kit generate --name <name>` and edit its draft").toEqual([]);
});

interface CatalogRow {
  table: string;
  name: string;
  definition: string;
}

/** A schema's columns, constraints and indexes as PostgreSQL itself prints them, schema names left out. */
async function catalog(schema: string): Promise<CatalogRow[]> {
  // Collation aside: pg-core cannot say COLLATE "C" (schema-parity.test.ts holds every text column to it).
  const { rows } = await pg.query<CatalogRow>(
    `SELECT table_name AS table, column_name AS name,
        concat_ws(' ', data_type, is_nullable, column_default, is_identity, identity_generation) AS definition
     FROM information_schema.columns WHERE table_schema = $1 AND table_name = ANY($2)
     UNION ALL
     SELECT r.relname, c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint AS c JOIN pg_class AS r ON r.oid = c.conrelid
     WHERE c.connamespace = $1::regnamespace AND r.relname = ANY($2)
     UNION ALL
     SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = ANY($2)
     ORDER BY 1, 2, 3`,
    [schema, pgTables],
  );
  // pg_trgm's operator classes live in public on both sides.
  return rows.map((row) => ({ ...row, definition: row.definition.replaceAll(`${schema}.`, "").replaceAll("public.", "") }));
}

it("what drizzle-kit creates from the mirror is, in PostgreSQL's catalog, what db/pg/migrations created", async () => {
  // Push leaves out checks' expressions and partial indexes' predicates; PostgreSQL's own printing of
  // both sides compares them too. The mirror's DDL is built beside the migrated schema, in "mirror".
  const ddl = await generateMigration(generateDrizzleJson({}), generateDrizzleJson(mirror));
  await pg.exec("CREATE SCHEMA mirror; SET search_path TO mirror, public");
  try {
    for (const statement of ddl) await pg.exec(statement.replaceAll('"public".', '"mirror".'));
  } finally {
    await pg.exec("RESET search_path");
  }
  // Printed with no schema on the path, so every name comes qualified and then unqualified alike.
  await pg.exec("SET search_path TO ''");
  try {
    expect(await catalog("mirror")).toEqual(await catalog("public"));
  } finally {
    await pg.exec("RESET search_path");
  }
});
