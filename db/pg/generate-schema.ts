import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Column, getTableColumns, is, SQL, StringChunk } from "drizzle-orm";
import { getTableConfig, SQLiteTable, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import * as schema from "../schema";

// Writes db/pg/schema.ts: the pg-core mirror of db/schema.ts in the storage types of
// db/pg/migrations (its header comment), for drizzle-kit on PostgreSQL. db/schema.ts stays the one
// definition; tests/unit/db/pg/mirror.test.ts fails when the mirror is stale or drizzle-kit sees it
// differ from the migrated database. Run: npx tsx db/pg/generate-schema.ts

export const PG_SCHEMA_FILE = join(process.cwd(), "db", "pg", "schema.ts");
export const GENERATE_COMMAND = "npx tsx db/pg/generate-schema.ts";

// What db/schema.ts cannot say, written out here.

/** SQLite's rowid made a column on PostgreSQL, where the app orders by it (waitlists' creation ties). */
const ROWID_COLUMNS: Record<string, string> = { waitlists: "rowid" };

/** Checks SQLite's JSON functions spell differently on PostgreSQL (a TypeScript template over `table`). */
const PG_CHECKS: Record<string, string> = {
  signups_custom_inputs_is_array: "json_typeof(${table.customInputs}::json) = 'array'",
  events_payload_is_json: "(${table.payload}::json) IS NOT NULL",
  join_settings_fields_is_array: "json_typeof(${table.fields}::json) = 'array'",
  join_settings_embed_origins_is_array: "json_typeof(${table.embedOrigins}::json) = 'array'",
};

/** PostgreSQL-only checks: an enum that sqlite-core only types, here enforced. */
const PG_ONLY_CHECKS: Record<string, Record<string, string>> = {
  invitation_emails: { invitation_emails_on_invite_expiry_known: "${table.onInviteExpiry} IN ('requeue', 'reject')" },
};

/** PostgreSQL-only indexes: the trigram index in place of SQLite's FTS5 search table. */
const PG_ONLY_INDEXES: Record<string, string[]> = {
  signups: ['index("signups_email_trgm_idx").using("gin", table.email.op("gin_trgm_ops"))'],
};

/** The pg-core column each sqlite-core column kind is stored as. */
const PG_COLUMN: Record<string, (name: string) => string> = {
  SQLiteBoolean: (name) => `integer("${name}")`,
  SQLiteInteger: (name) => `bigint("${name}", { mode: "number" })`,
  SQLiteTimestamp: (name) => `bigint("${name}", { mode: "number" })`,
  SQLiteText: (name) => `text("${name}")`,
  SQLiteTextJson: (name) => `text("${name}")`,
  SQLiteReal: (name) => `doublePrecision("${name}")`,
  SQLiteBlobBuffer: (name) => `bytea("${name}")`,
};

/** What the mirror may take of pg-core, imported where it calls them. */
const PG_CORE_NAMES = ["bigint", "check", "customType", "doublePrecision", "foreignKey", "index", "integer", "pgTable", "primaryKey", "text", "uniqueIndex"];

type TableConfig = ReturnType<typeof getTableConfig>;

/** A sqlite-core SQL template as TypeScript template text, its columns as `${table.key}`. */
function template(chunk: unknown, keys: Map<Column, string>): string {
  if (is(chunk, SQL)) return chunk.queryChunks.map((inner) => template(inner, keys)).join("");
  if (is(chunk, StringChunk)) return chunk.value.join("");
  if (is(chunk, Column)) return `\${table.${keys.get(chunk) ?? chunk.name}}`;
  throw new Error(`db/pg/generate-schema.ts: cannot mirror ${String(chunk)} in an SQL template`);
}

function literal(value: unknown): string {
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "string" || typeof value === "number") return JSON.stringify(value);
  throw new Error(`db/pg/generate-schema.ts: cannot mirror the default ${String(value)}`);
}

/** A single integer primary key: SQLite's rowid under another name, which every index of the table ends in. */
function rowidAlias(config: TableConfig): SQLiteColumn | undefined {
  const primary = config.columns.filter((column) => column.primary);
  return primary.length === 1 && primary[0]?.columnType === "SQLiteInteger" ? primary[0] : undefined;
}

/** A rowid alias that refers to no other row is numbered by the database: an identity on PostgreSQL. */
function identityKey(config: TableConfig): SQLiteColumn | undefined {
  const alias = rowidAlias(config);
  return alias && !config.foreignKeys.some((key) => key.reference().columns.includes(alias)) ? alias : undefined;
}

function columnSource(key: string, column: SQLiteColumn, identity: boolean): string {
  const pgColumn = PG_COLUMN[column.columnType];
  if (!pgColumn) throw new Error(`db/pg/generate-schema.ts: no PostgreSQL type for ${column.columnType} (${column.name})`);
  let source = pgColumn(column.name);
  if (column.primary) source += ".primaryKey()";
  if (identity) source += ".generatedByDefaultAsIdentity()";
  else if (column.notNull && !column.primary) source += ".notNull()";
  if (column.hasDefault && column.default !== undefined) source += `.default(${literal(column.default)})`;
  return `    ${key}: ${source},`;
}

function tableSource(variable: string, table: SQLiteTable, tableVariables: Map<string, string>): string {
  const config = getTableConfig(table);
  const columns = Object.entries(getTableColumns(table)) as [string, SQLiteColumn][];
  const keys = new Map<Column, string>(columns.map(([key, column]) => [column, key]));
  const ref = (column: Column) => `table.${keys.get(column)}`;
  const identity = identityKey(config);
  const alias = rowidAlias(config);
  const rowid = ROWID_COLUMNS[config.name];
  const lines = columns.map(([key, column]) => columnSource(key, column, column === identity));
  if (rowid) {
    lines.push(`    ${rowid}: bigint("${rowid}", { mode: "number" }).generatedAlwaysAsIdentity(),`);
  }
  // The key of a rowid table, which SQLite ends each of its indexes in unsaid, written out.
  const rowidRef = rowid ? `table.${rowid}` : alias ? ref(alias) : undefined;

  const extras: string[] = [];
  for (const key of config.primaryKeys) {
    extras.push(`primaryKey({ name: "${config.name}_pkey", columns: [${key.columns.map(ref).join(", ")}] })`);
  }
  for (const key of config.foreignKeys) {
    const { columns: from, foreignColumns, foreignTable } = key.reference();
    const target = getTableConfig(foreignTable).name === config.name ? "table" : tableVariables.get(getTableConfig(foreignTable).name);
    const targetColumns = foreignColumns.map((column) => `${target}.${Object.entries(getTableColumns(foreignTable)).find(([, c]) => c === column)?.[0]}`);
    // PostgreSQL's own name for a constraint it names: the baseline leaves them unnamed.
    const name = `${config.name}_${from.map((column) => column.name).join("_")}_fkey`;
    let source = `foreignKey({ name: "${name}", columns: [${from.map(ref).join(", ")}], foreignColumns: [${targetColumns.join(", ")}] })`;
    if (key.onDelete && key.onDelete !== "no action") source += `.onDelete("${key.onDelete}")`;
    extras.push(source);
  }
  for (const [key, column] of columns) {
    if (!column.isUnique) continue;
    extras.push(`uniqueIndex("${column.uniqueName}").on(table.${key})`);
  }
  for (const index of config.indexes) {
    const { name, unique, where } = index.config;
    const parts = index.config.columns.map((part) => (is(part, Column) ? ref(part) : `sql\`${template(part, keys)}\``));
    if (!unique && rowidRef && !parts.includes(rowidRef)) parts.push(rowidRef);
    extras.push(`${unique ? "uniqueIndex" : "index"}("${name}").on(${parts.join(", ")})${where ? `.where(sql\`${template(where, keys)}\`)` : ""}`);
  }
  extras.push(...(PG_ONLY_INDEXES[config.name] ?? []));
  const booleans = columns.filter(([, column]) => column.columnType === "SQLiteBoolean");
  const checks = [
    // sqlite-core's boolean is any integer to SQLite; PostgreSQL holds it to 0 and 1.
    ...booleans.map(([key, column]) => [`${config.name}_${column.name}_boolean`, `\${table.${key}} IN (0, 1)`] as const),
    ...config.checks.map((check) => [check.name, PG_CHECKS[check.name] ?? template(check.value, keys)] as const),
    ...Object.entries(PG_ONLY_CHECKS[config.name] ?? {}),
  ];
  for (const [name, value] of checks) {
    extras.push(`check("${name}", sql\`${value}\`)`);
  }

  const head = `export const ${variable} = pgTable(\n  "${config.name}",\n  {\n${lines.join("\n")}\n  }`;
  if (extras.length === 0) return `${head},\n);\n`;
  return `${head},\n  (table) => [\n${extras.map((extra) => `    ${extra},`).join("\n")}\n  ],\n);\n`;
}

/** The source of db/pg/schema.ts for the db/schema.ts of now. */
export function pgSchemaSource(): string {
  // By name: a module namespace's order is not its file's under every loader.
  const tables = (Object.entries(schema) as [string, unknown][])
    .flatMap(([variable, value]): [string, SQLiteTable][] => (is(value, SQLiteTable) ? [[variable, value]] : []))
    .sort(([a], [b]) => a.localeCompare(b));
  const tableVariables = new Map(tables.map(([variable, table]) => [getTableConfig(table).name, variable]));
  const body = tables.map(([variable, table]) => tableSource(variable, table, tableVariables)).join("\n");
  const calls = (name: string) => new RegExp(`\\b${name}\\(`).test(body);
  const usesBytea = calls("bytea");
  const pgCore = PG_CORE_NAMES.filter((name) => calls(name) || (name === "customType" && usesBytea));
  const header = [
    `// Generated by db/pg/generate-schema.ts from db/schema.ts: do not edit, run \`${GENERATE_COMMAND}\`.`,
    "// The pg-core mirror of the one schema, in the storage types of db/pg/migrations, for drizzle-kit on",
    "// PostgreSQL (drizzle.config.ts with a postgres:// DATABASE_URL). Triggers, views and functions are",
    "// beyond drizzle-kit and live in db/pg/migrations only.",
    ...(body.includes("sql`") ? ['import { sql } from "drizzle-orm";'] : []),
    `import { ${pgCore.join(", ")} } from "drizzle-orm/pg-core";`,
    "",
    ...(usesBytea ? ['const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });', ""] : []),
  ];
  return `${header.join("\n")}\n${body}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(PG_SCHEMA_FILE, pgSchemaSource());
  console.log(`wrote ${PG_SCHEMA_FILE}`);
}
