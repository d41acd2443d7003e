import type { Command } from "commander";
import { importSignups } from "@/lib/import/import-signups";
import { emit, type JsonOption } from "../output";
import { progressBar } from "../progress";

export function registerSignupCommands(program: Command): void {
  const signups = program.command("signups").description("Manage the signups of a waitlist.");

  signups
    .command("import")
    .description(
      "Import signups from a .csv, .json (an array of objects) or .ndjson/.jsonl file. Every row is validated first: " +
        "any invalid row aborts the import and nothing is written. Emails already in the waitlist or repeated in the file are skipped.",
    )
    .requiredOption("--waitlist <id>", "id of the waitlist to import into")
    .argument("<file>", "the file to import")
    .option("--json", "print one JSON object to stdout")
    .action(async (file: string, options: { waitlist: string } & JsonOption) => {
      let bar: ReturnType<typeof progressBar> | undefined;
      try {
        const result = await importSignups({
          waitlistId: options.waitlist,
          path: file,
          onProgress: (phase, done, total) => {
            bar ??= progressBar(total);
            bar.update(phase === "validating" ? "Validating" : "Importing", done);
          },
        });
        bar?.clear();
        emit(options, result, () => `Imported ${result.imported} signups; skipped ${result.skipped_duplicates} duplicates.`);
      } finally {
        bar?.clear();
      }
    });
}
