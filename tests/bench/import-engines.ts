// The import of one CSV file on each engine, in seconds: a fresh SQLite file and a throw-away
// PostgreSQL 15 (tests/support/pg-server.ts), or the PostgreSQL at --url.
//   node --import tsx tests/bench/import-engines.ts [--rows 100000] [--url postgres://…]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, type AppDatabase } from "@/db/client";
import { openPostgres } from "@/db/pg/client";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { importSignups } from "@/lib/import/import-signups";
import { startPostgres } from "@/tests/support/pg-server";
import { prepareImportFile } from "./import-file";

async function timedImport(db: AppDatabase, path: string): Promise<{ seconds: number; imported: number }> {
  const waitlistId = (await createWaitlist({ name: "Import", website: "https://example.com" }, db)).id;
  const started = performance.now();
  const { imported } = await importSignups({ waitlistId, path }, db);
  return { seconds: (performance.now() - started) / 1000, imported };
}

async function main() {
  const { values } = parseArgs({ options: { rows: { type: "string", default: "100000" }, url: { type: "string" } } });
  const rows = Number(values.rows);
  const dir = mkdtempSync(join(tmpdir(), "waitlist-import-engines-"));
  process.env.SECRETS_KEY ??= "a".repeat(64);
  try {
    const path = await prepareImportFile(dir, rows);
    const sqlite = openDatabase(join(dir, "import.db"));
    const onSqlite = await timedImport(sqlite, path);
    sqlite.$client.close();
    const server = values.url === undefined ? await startPostgres() : undefined;
    try {
      const pg = await openPostgres(values.url ?? server!.url);
      const onPostgres = await timedImport(pg, path);
      await pg.$engine.close();
      console.table({ SQLite: onSqlite, [`PostgreSQL${server ? " 15 (throw-away)" : ""}`]: onPostgres });
    } finally {
      await server?.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
