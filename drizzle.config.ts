import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { defineConfig } from "drizzle-kit";
import * as pgSchema from "./db/pg/schema";

/**
 * The tables drizzle-kit may touch on PostgreSQL: the mirror's. The rest of the database is
 * db/pg/migrations' own (its journal `pg_migrations` and its views), which push would otherwise drop.
 */
export const pgTables = Object.values(pgSchema).flatMap((value) => (is(value, PgTable) ? [getTableConfig(value).name] : []));

const url = process.env.DATABASE_URL;

// SQLite unless DATABASE_URL names a PostgreSQL server. On PostgreSQL the schema is db/pg/schema.ts, the
// pg-core mirror of db/schema.ts (regenerate it: npx tsx db/pg/generate-schema.ts). `drizzle-kit generate
// --name <name>` drafts the next db/pg/migrations file from meta/'s last snapshot; the draft is edited by
// hand (COLLATE "C" on text, triggers, views) and applied by db/pg/migrate.ts, not by drizzle-kit.
export default url && /^postgres(ql)?:\/\//.test(url)
  ? defineConfig({
      dialect: "postgresql",
      schema: "./db/pg/schema.ts",
      out: "./db/pg/migrations",
      dbCredentials: { url },
      tablesFilter: pgTables,
    })
  : defineConfig({
      dialect: "sqlite",
      schema: "./db/schema.ts",
      out: "./db/migrations",
      dbCredentials: { url: process.env.DATABASE_PATH ?? "./data/waitlist.db" },
    });
