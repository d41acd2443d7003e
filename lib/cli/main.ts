import { Command } from "commander";
import { getDb } from "@/db/client";
import { env } from "@/lib/env";

const program = new Command()
  .name("waitlist")
  .description("Administer the Waitlist Admin database.")
  .showHelpAfterError();

const db = program.command("db").description("Database maintenance.");

db.command("migrate")
  .description("Create the database file if missing and apply pending migrations.")
  .option("--json", "print one JSON object to stdout")
  .action((options: { json?: boolean }) => {
    getDb();
    const path = env().DATABASE_PATH;
    console.log(options.json ? JSON.stringify({ database: path, migrated: true }) : `Database ${path} is up to date.`);
  });

program.parseAsync().catch((error: unknown) => {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
