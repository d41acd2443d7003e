import type { Command } from "commander";
import { getDb } from "@/db/client";
import { keySourceOf } from "@/db/master-key";
import { backupDatabase, backupKeyNote } from "@/lib/sqlite/backup";
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { checkDatabase, checkDatabaseIfPresent, databaseLocation, migrateDatabase } from "@/lib/domain/database";
import { seedDemoData } from "@/lib/seed/seed-demo";
import { continuousBackupOf, type ContinuousBackup } from "@/lib/sqlite/litestream";
import { restoreDatabase } from "@/lib/sqlite/restore";
import { emit, type JsonOption } from "../output";

/** Refuses, in one line, a command that works on SQLite's file when DATABASE_URL names PostgreSQL. */
function sqliteOnly(command: string, instead: string): void {
  if (env().DATABASE_URL) throw new AppError("invalid_parameter", `${command} works on SQLite's file (DATABASE_PATH); with DATABASE_URL, ${instead}`);
}

export function registerDbCommands(program: Command): void {
  const db = program.command("db").description("Database maintenance.");

  db.command("migrate")
    .description("Check the database file (as `db check`, when it exists), create it if missing and apply pending migrations (on PostgreSQL, DATABASE_URL: its tables).")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: JsonOption) => {
      const path = databaseLocation(env());
      if (env().DATABASE_URL) {
        const refusal = await migrateDatabase(env());
        if (refusal) throw new AppError("unavailable", `${path}: ${refusal.message}`);
      } else {
        // Migrating a damaged file would build on the damage: refuse it first.
        checkDatabaseIfPresent(path);
        getDb();
      }
      emit(options, { database: path, migrated: true }, () => `Database ${path} is up to date.`);
    });

  db.command("check")
    .description("Check every page of the database file (PRAGMA quick_check) without changing it; fails, naming the damage, if any is found.")
    .option("--json", "print one JSON object to stdout")
    .action((options: JsonOption) => {
      sqliteOnly("db check", "PostgreSQL checks its own pages: enable data checksums, or run amcheck");
      const path = env().DATABASE_PATH;
      const started = performance.now();
      checkDatabase(path);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      emit(options, { database: path, ok: true }, () => `Database ${path} passed PRAGMA quick_check in ${seconds}s.`);
    });

  db.command("seed-demo")
    .description("Add demo waitlists and signups (deterministic; running it again adds nothing).")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: JsonOption) => {
      const started = performance.now();
      const result = await seedDemoData();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      emit(options, result, () =>
        result.waitlists_created === 0
          ? "Demo data is already there; nothing added."
          : `Added ${result.waitlists_created} demo waitlists with ${result.signups_created} signups in ${seconds}s.`,
      );
    });

  db.command("backup")
    .description(
      "Write a consistent copy of the database to <file> with SQLite's online backup, while the app keeps serving. " +
        "The copy is checked (PRAGMA integrity_check) before it is moved into place. See the README for restoring it.",
    )
    .argument("<file>", "where to write the copy (a missing folder is created)")
    .option("--force", "replace <file> if it exists")
    .option("--json", "print one JSON object to stdout")
    .action(async (file: string, options: { force?: boolean } & JsonOption) => {
      sqliteOnly("db backup", "back PostgreSQL up with pg_dump, or your provider's point-in-time recovery (see /docs/production)");
      const started = performance.now();
      const result = await backupDatabase({ destination: file, force: options.force });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      emit(options, result, () => [`Backed up ${env().DATABASE_PATH} to ${result.path} (${result.waitlists} waitlists, ${result.signups} signups, ${result.bytes} bytes) in ${seconds}s.`, backupKeyNote(result.secrets_key_not_included)].join("\n"));
    });

  db.command("restore")
    .description(
      "Rebuild the database from continuous backup (Litestream's replica) into a new file, checked with PRAGMA integrity_check. " +
        "It never replaces an existing file: restore into DATABASE_PATH once the old file is gone or moved away, or --to another file.",
    )
    .option("--from <replica-url>", "the replica: file:///folder or s3://bucket/path (default: LITESTREAM_REPLICA_URL, or DATABASE_PATH's replicas in LITESTREAM_CONFIG)")
    .option("--to <file>", "where to write the restored database (default: DATABASE_PATH)")
    .option("--at <time>", "restore the database as it was at this moment (ISO 8601, e.g. 2026-05-01T09:30:00Z) instead of the latest")
    .option("--json", "print one JSON object to stdout")
    .action(async (options: { from?: string; to?: string; at?: string } & JsonOption) => {
      sqliteOnly("db restore", "restore PostgreSQL with pg_restore, or your provider's point-in-time recovery (see /docs/production)");
      const { DATABASE_PATH, ...config } = env();
      const from: ContinuousBackup | undefined = options.from ? { replicaUrl: options.from } : continuousBackupOf(config);
      if (!from) throw new AppError("invalid_parameter", "give --from <replica-url> (or set LITESTREAM_REPLICA_URL or LITESTREAM_CONFIG)", "from");
      const at = options.at === undefined ? undefined : new Date(options.at);
      if (at && Number.isNaN(at.getTime())) throw new AppError("invalid_parameter", `--at "${options.at}" is not a time such as 2026-05-01T09:30:00Z`, "at");
      const result = await restoreDatabase({ from, databasePath: DATABASE_PATH, to: options.to ?? DATABASE_PATH, at });
      emit(options, result, () =>
        [
          `Restored ${result.path} from ${result.replica}${result.as_of ? ` as of ${result.as_of}` : ""} (${result.waitlists} waitlists, ${result.signups} signups, ${result.bytes} bytes) in ${result.seconds}s.`,
          ...(result.latest_failed_integrity_check ? [`The latest state failed PRAGMA integrity_check (${result.latest_failed_integrity_check}): this is the latest earlier moment that passed.`] : []),
          backupKeyNote(keySourceOf(DATABASE_PATH)),
        ].join("\n"),
      );
    });
}
