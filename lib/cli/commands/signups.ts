import type { Command } from "commander";
import { z } from "zod";
import { importDelimiterSchema } from "@/lib/import/options";
import { importSignups } from "@/lib/import/import-signups";
import { emit, parseOptions, type JsonOption } from "../output";
import { progressBar } from "../progress";
import { registerSignupErase } from "./signups-erase";
import { registerSignupExport } from "./signups-export";
import { registerSignupFind } from "./signups-find";
import { registerSignupStatusCommands } from "./signups-status";
import { registerSignupReviewCommands } from "./signups-review";

const importSchema = z.object({ delimiter: importDelimiterSchema });

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
    .option("--delimiter <char>", "the cell delimiter of a CSV file: one character, such as ';', or the word tab (default ',')")
    .option("--json", "print one JSON object to stdout")
    .action(async (file: string, options: { waitlist: string; delimiter?: string } & JsonOption) => {
      const { delimiter } = parseOptions(importSchema, { delimiter: options.delimiter });
      let bar: ReturnType<typeof progressBar> | undefined;
      try {
        const result = await importSignups({
          waitlistId: options.waitlist,
          path: file,
          delimiter,
          onProgress: (phase, done, total) => {
            bar ??= progressBar(total);
            bar.update({ validating: "Validating", importing: "Importing", deriving: "Deriving" }[phase], done);
          },
        });
        bar?.clear();
        emit(options, result, () => `Imported ${result.imported} signups; skipped ${result.skipped_duplicates} duplicates.`);
      } finally {
        bar?.clear();
      }
    });

  registerSignupExport(signups);
  registerSignupFind(signups);
  registerSignupErase(signups);
  registerSignupStatusCommands(signups);
  registerSignupReviewCommands(signups);
}
