import type { PGlite } from "@electric-sql/pglite";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import { applyPgMigrations } from "@/db/pg/migrate";
import { migratedPglite } from "@/tests/support/pglite";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// db/pg/migrations must keep the schema db/schema.ts describes (and SQLite's migrations build), in
// storage types under which sqlite-core's encodings hold, so the one definition serves both engines.

// SQLite's own tables, the FTS5 search table (a trigram index on PostgreSQL) and the migrators' journals.
const SQLITE_ONLY_TABLE = /^(sqlite_|__drizzle_migrations$|signup_email_search)/;
const PG_ONLY_TABLES = ["pg_migrations"];
// Not in db/schema.ts: SQLite's rowid, which waitlists are ordered by, made a column.
const PG_ONLY_COLUMNS = ["waitlists.rowid"];
const PG_ONLY_INDEXES = ["signups_email_trgm_idx"];

/** The PostgreSQL type each sqlite-core column kind is stored as. */
const PG_TYPE: Record<string, string> = {
  SQLiteBoolean: "integer",
  SQLiteInteger: "bigint",
  SQLiteTimestamp: "bigint",
  SQLiteText: "text",
  SQLiteTextJson: "text",
  SQLiteReal: "double precision",
  SQLiteBlobBuffer: "bytea",
};

interface PgColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_nullable: "YES" | "NO";
  collation_name: string | null;
  column_default: string | null;
  is_identity: "YES" | "NO";
}

interface IndexShape {
  table: string;
  unique: boolean;
  partial: boolean;
  /** The key's columns in order; null for an expression. */
  columns: (string | null)[];
}

let pg: PGlite;
let sqlite: TempDatabase;
const tables = (Object.values(schema) as unknown[]).flatMap((value) => (is(value, SQLiteTable) ? [getTableConfig(value)] : []));

beforeAll(async () => {
  sqlite = tempDatabase();
  pg = await migratedPglite();
});
afterAll(async () => {
  sqlite.close();
  await pg.close();
});

async function pgColumns(): Promise<Map<string, PgColumn>> {
  const { rows } = await pg.query<PgColumn>(
    "SELECT table_name, column_name, data_type, is_nullable, collation_name, column_default, is_identity FROM information_schema.columns WHERE table_schema = 'public' AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')",
  );
  return new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row]));
}

function sqliteNames(type: "table" | "view" | "trigger"): string[] {
  const rows = sqlite.db.$client.prepare("SELECT name FROM sqlite_schema WHERE type = ?").all(type) as { name: string }[];
  return rows.map((row) => row.name).filter((name) => !SQLITE_ONLY_TABLE.test(name)).sort();
}

describe("the PostgreSQL baseline against db/schema.ts and SQLite's migrated schema", () => {
  it("has the same tables and views, and none more", async () => {
    const fromSchema = tables.map((table) => table.name).sort();
    expect(sqliteNames("table")).toEqual(fromSchema);
    const pgTables = await pg.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'");
    expect(pgTables.rows.map((row) => row.table_name).filter((name) => !PG_ONLY_TABLES.includes(name)).sort()).toEqual(fromSchema);
    const pgViews = await pg.query<{ table_name: string }>("SELECT table_name FROM information_schema.views WHERE table_schema = 'public'");
    expect(pgViews.rows.map((row) => row.table_name).sort()).toEqual(sqliteNames("view"));
  });

  it("stores every column of db/schema.ts in its type, with its nullability and default, and text in SQLite's binary order", async () => {
    const columns = await pgColumns();
    const problems: string[] = [];
    const expected = new Set<string>(PG_ONLY_COLUMNS);
    for (const table of tables) {
      for (const column of table.columns as SQLiteColumn[]) {
        const key = `${table.name}.${column.name}`;
        expected.add(key);
        const found = columns.get(key);
        if (!found) {
          problems.push(`${key}: missing`);
          continue;
        }
        const type = PG_TYPE[column.columnType];
        if (type === undefined) problems.push(`${key}: no PostgreSQL type known for ${column.columnType}`);
        else if (found.data_type !== type) problems.push(`${key}: ${found.data_type}, expected ${type} for ${column.columnType}`);
        if (type === "text" && found.collation_name !== "C") problems.push(`${key}: collation ${found.collation_name ?? "default"}, expected "C"`);
        if ((found.is_nullable === "NO") !== column.notNull) problems.push(`${key}: nullable ${found.is_nullable}, drizzle notNull ${column.notNull}`);
        const pgDefault = found.column_default === null ? null : (await pg.query<{ value: string | null }>(`SELECT (${found.column_default})::text AS value`)).rows[0]!.value;
        const drizzleDefault = column.default === undefined ? null : typeof column.default === "boolean" ? String(Number(column.default)) : String(column.default as string | number);
        if (pgDefault !== drizzleDefault) problems.push(`${key}: default ${pgDefault}, expected ${drizzleDefault}`);
        // Ids SQLite numbers itself (AUTOINCREMENT, INTEGER PRIMARY KEY on its own) are identities.
        const ownId = column.primary && column.columnType === "SQLiteInteger" && !table.foreignKeys.some((fk) => fk.reference().columns.includes(column));
        if ((found.is_identity === "YES") !== ownId) problems.push(`${key}: identity ${found.is_identity}, expected ${ownId ? "YES" : "NO"}`);
      }
    }
    for (const key of columns.keys()) if (!expected.has(key) && !PG_ONLY_TABLES.includes(key.split(".")[0]!)) problems.push(`${key}: not in db/schema.ts`);
    expect(problems).toEqual([]);
  });

  it("keeps booleans to 0 and 1 with a check on each", async () => {
    const { rows } = await pg.query<{ column: string; definition: string }>(
      `SELECT c.relname || '.' || a.attname AS column, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
       WHERE k.contype = 'c' AND cardinality(k.conkey) = 1`,
    );
    const booleans = tables.flatMap((table) => (table.columns as SQLiteColumn[]).filter((column) => column.columnType === "SQLiteBoolean").map((column) => `${table.name}.${column.name}`));
    expect(booleans.length).toBeGreaterThan(10);
    for (const column of booleans) expect(rows.filter((row) => row.column === column).map((row) => row.definition), column).toContain(`CHECK ((${column.split(".")[1]} = ANY (ARRAY[0, 1])))`);
  });

  it("has every named check of db/schema.ts and of SQLite's tables", async () => {
    const fromSchema = tables.flatMap((table) => table.checks.map((check) => check.name));
    const sqliteSql = (sqlite.db.$client.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND sql IS NOT NULL").all() as { sql: string }[]).map((row) => row.sql).join("\n");
    const fromSqlite = [...sqliteSql.matchAll(/CONSTRAINT "(\w+)" CHECK/g)].map((match) => match[1]!);
    const { rows } = await pg.query<{ conname: string }>("SELECT conname FROM pg_constraint WHERE contype = 'c'");
    const pgChecks = new Set(rows.map((row) => row.conname));
    expect(fromSchema.length + fromSqlite.length).toBeGreaterThan(20);
    expect([...new Set([...fromSchema, ...fromSqlite])].filter((name) => !pgChecks.has(name))).toEqual([]);
  });

  it("refuses the rows SQLite's checks refuse", async () => {
    const waitlist = "INSERT INTO waitlists (id, name, website, created_at) VALUES ('checks', 'Checks', 'https://checks.example', 0)";
    sqlite.db.$client.exec(waitlist);
    await pg.exec(waitlist);
    const signup = (column: string, value: string, email = "b@checks.example") => `INSERT INTO signups (waitlist_id, email, created_at, ${column}) VALUES ('checks', '${email}', 0, ${value})`;
    const accepted = signup("custom_inputs", "'[{\"label\":\"Plan\",\"value\":\"Pro\"}]'", "a@checks.example");
    sqlite.db.$client.exec(accepted);
    await pg.exec(accepted);
    const refused = [
      signup("status", "'unknown'"),
      signup("custom_inputs", "'{}'"),
      signup("custom_inputs", "'not json'"),
      "INSERT INTO events (type, waitlist_id, created_at, payload) VALUES ('x', 'checks', 0, 'not json')",
      "INSERT INTO join_settings (waitlist_id, updated_at, fields) VALUES ('checks', 0, '{}')",
      "INSERT INTO referrals (signup_id, referrer_id, waitlist_id, state, counted_at) SELECT id, id, 'checks', 'counted', NULL FROM signups WHERE waitlist_id = 'checks'",
      "INSERT INTO milestones (waitlist_id, referrals, label) VALUES ('checks', 0, 'Zero')",
    ];
    for (const statement of refused) {
      expect(() => sqlite.db.$client.exec(statement), statement).toThrow();
      await expect(pg.exec(statement), statement).rejects.toThrow();
    }
    // The same address in another ASCII case is the same signup on both.
    const again = "INSERT INTO signups (waitlist_id, email, created_at) VALUES ('checks', 'A@Checks.Example', 0)";
    expect(() => sqlite.db.$client.exec(again)).toThrow(/UNIQUE/);
    await expect(pg.exec(again)).rejects.toThrow(/signups_waitlist_email_unique/);
  });

  it("has every SQLite index by name, as unique and as partial as it, starting with its key", async () => {
    const client = sqlite.db.$client;
    const fromSqlite = new Map<string, IndexShape>();
    for (const table of tables) {
      const list = client.prepare(`PRAGMA index_list("${table.name}")`).all() as { name: string; unique: number; origin: string; partial: number }[];
      for (const index of list.filter((each) => each.origin === "c")) {
        const info = client.prepare(`PRAGMA index_xinfo("${index.name}")`).all() as { name: string | null; key: number }[];
        const columns = info.filter((column) => column.key === 1).map((column) => column.name);
        fromSqlite.set(index.name, { table: table.name, unique: index.unique === 1, partial: index.partial === 1, columns });
      }
    }
    expect(fromSqlite.size).toBe(34);
    const { rows } = await pg.query<{ name: string } & IndexShape>(
      `SELECT i.relname AS name, t.relname AS table, x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
         array(SELECT a.attname FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k (attnum, n) LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = 'public' AND NOT x.indisprimary`,
    );
    const fromPg = new Map(rows.filter((row) => !PG_ONLY_INDEXES.includes(row.name)).map(({ name, ...shape }) => [name, shape]));
    expect([...fromPg.keys()].sort()).toEqual([...fromSqlite.keys()].sort());
    for (const [name, shape] of fromSqlite) {
      const counterpart = fromPg.get(name)!;
      expect({ name, table: counterpart.table, unique: counterpart.unique, partial: counterpart.partial, columns: counterpart.columns.slice(0, shape.columns.length) }).toEqual({ name, ...shape });
    }
    const search = rows.find((row) => row.name === "signups_email_trgm_idx");
    expect(search).toMatchObject({ table: "signups", columns: ["email"] });
  });

  it("carries each of SQLite's 21 triggers in a PostgreSQL trigger", async () => {
    const carriedBy: Record<string, string[]> = {
      signups_after_insert: ["signups_derive_after_insert", "signup_input_status_counts_after_insert", "funnel_after_insert"],
      signups_after_update: [
        "signups_derive_after_update",
        "signup_counts_after_update",
        "signup_input_status_counts_before_update",
        "signup_input_status_counts_after_update",
        "moved_signup_counts_enter",
        "moved_signup_counts_leave",
        "funnel_before_update",
        "funnel_after_update",
        "funnel_after_times",
      ],
      signups_after_delete: ["signups_derive_after_delete", "signup_counts_after_delete", "signup_input_status_counts_before_delete", "moved_signup_counts_delete", "funnel_before_delete"],
      signup_inputs_count_after_insert: ["signup_inputs_count_after_insert"],
      signup_inputs_count_after_delete: ["signup_inputs_count_after_delete"],
      funnel_invitation_expired: ["funnel_invitation_expired"],
      milestones_forget_reached: ["milestones_forget_reached"],
    };
    expect(Object.values(carriedBy).flat().sort()).toEqual(sqliteNames("trigger"));
    const { rows } = await pg.query<{ tgname: string }>("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal");
    expect(rows.map((row) => row.tgname).sort()).toEqual(Object.keys(carriedBy).sort());
  });

  it("records the migrations applied, and a second run applies none", async () => {
    expect(await applyPgMigrations(pg)).toEqual([]);
    const { rows } = await pg.query<{ name: string }>("SELECT name FROM pg_migrations ORDER BY name");
    expect(rows.map((row) => row.name)).toEqual(["0000_baseline", "0001_unlogged_limits", "0002_inline_input_pairs", "0003_lease_rows", "0004_bulk_insert_derives"]);
  });
});
