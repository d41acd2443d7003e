import type { Command } from "commander";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { SIGNUP_EXPORT_FORMATS, signupExportChunks } from "@/lib/domain/signups/export";
import { signupRowBatches } from "@/lib/domain/signups/queries";
import type { SignupRow } from "@/lib/domain/signups/row";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { addFilterOptions, parseFilterOptions, type FilterOptions } from "../export-filter";
import { emit, parseOptions, type JsonOption } from "../output";
import { checkOutputPath, writeOutput } from "../write-output";

const exportSchema = z.object({
  format: z.enum(SIGNUP_EXPORT_FORMATS).describe("csv, ndjson or json"),
});

type ExportOptions = FilterOptions & JsonOption & { waitlist: string; format: string; output?: string };

export function registerSignupExport(signups: Command): void {
  const command = signups
    .command("export")
    .description(
      "Write the signups of a waitlist that the filters select, in creation order, as CSV (the dashboard export's columns and cells), " +
        "NDJSON or JSON (the API's objects with created_at). Every format imports back with `signups import`.",
    )
    .requiredOption("--waitlist <id>", "id of the waitlist");
  addFilterOptions(command)
    .option("--format <format>", "csv, ndjson or json", "csv")
    .option("--output <file>", "the file to write, replaced only once complete (default: stdout)")
    .option("--json", "with --output: print one JSON object to stdout")
    .action(async (options: ExportOptions) => {
      const filter = parseFilterOptions(options);
      const { format } = parseOptions(exportSchema, { format: options.format });
      if (options.json && options.output === undefined) throw new AppError("invalid_parameter", "--json needs --output: without it the signups themselves go to stdout", "--json");
      const waitlist = getWaitlistOrThrow(options.waitlist);
      if (options.output !== undefined) checkOutputPath(options.output);
      let exported = 0;
      function* counted(batches: Iterable<SignupRow[]>) {
        for (const batch of batches) {
          exported += batch.length;
          yield batch;
        }
      }
      await writeOutput(signupExportChunks(format, counted(signupRowBatches({ ...filter, waitlistId: waitlist.id }))), options.output);
      if (options.output !== undefined) {
        const result = { exported, format, output: options.output };
        emit(options, result, () => `Exported ${exported} signups to ${options.output}.`);
      }
    });
}
