import type { Command } from "commander";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { inputColumnsOf } from "@/lib/domain/signups/csv";
import { SIGNUP_EXPORT_FORMATS, signupExportChunks } from "@/lib/domain/signups/export";
import { signupLineRowBatches, signupRowBatches } from "@/lib/domain/signups/queries";
import type { SignupRow } from "@/lib/domain/signups/row";
import { API_SIGNUP_SORTS } from "@/lib/domain/sorting";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { addFilterOptions, parseFilterOptions, type FilterOptions } from "../export-filter";
import { emit, parseOptions, type JsonOption } from "../output";
import { checkOutputPath, writeOutput } from "../write-output";

const exportSchema = z.object({
  format: z.enum(SIGNUP_EXPORT_FORMATS).describe("csv, ndjson or json"),
  sort: z.enum(API_SIGNUP_SORTS).describe(API_SIGNUP_SORTS.join(" or ")),
  columns: z.enum(["fields", "inputs"]).describe("fields or inputs"),
});

type ExportOptions = FilterOptions & JsonOption & { waitlist: string; format: string; sort: string; columns: string; output?: string };

export function registerSignupExport(signups: Command): void {
  const command = signups
    .command("export")
    .description(
      "Write the signups of a waitlist that the filters select, in creation order (or in line with --sort position), as CSV (the dashboard export's columns and cells), " +
        "NDJSON or JSON (the API's objects with created_at). Every format imports back with `signups import`.",
    )
    .requiredOption("--waitlist <id>", "id of the waitlist");
  addFilterOptions(command)
    .option("--format <format>", "csv, ndjson or json", "csv")
    .option("--sort <order>", "created_at (creation order) or position (the line: waiting signups in their places, as sort=position in /v1)", "created_at")
    .option(
      "--columns <layout>",
      "CSV only: fields (the answers as one JSON column, custom_inputs) or inputs (each answer's label a column of its own, for spreadsheets; answers without a column stay in custom_inputs, and the file still imports back)",
      "fields",
    )
    .option("--output <file>", "the file to write, replaced only once complete (default: stdout)")
    .option("--json", "with --output: print one JSON object to stdout")
    .action(async (options: ExportOptions) => {
      const filter = parseFilterOptions(options);
      const { format, sort, columns } = parseOptions(exportSchema, { format: options.format, sort: options.sort, columns: options.columns });
      if (columns === "inputs" && format !== "csv") throw new AppError("invalid_parameter", "--columns inputs is for CSV: JSON and NDJSON carry the answers as objects", "--columns");
      if (sort === "position" && filter.status?.some((status) => status !== "waiting")) throw new AppError("invalid_parameter", "--status can only be waiting with --sort position: the line holds waiting signups only", "--status");
      if (options.json && options.output === undefined) throw new AppError("invalid_parameter", "--json needs --output: without it the signups themselves go to stdout", "--json");
      const waitlist = await getWaitlistOrThrow(options.waitlist);
      if (options.output !== undefined) checkOutputPath(options.output);
      let exported = 0;
      async function* counted(batches: AsyncIterable<SignupRow[]>) {
        for await (const batch of batches) {
          exported += batch.length;
          yield batch;
        }
      }
      await writeOutput(signupExportChunks(format, counted((sort === "position" ? signupLineRowBatches : signupRowBatches)({ ...filter, waitlistId: waitlist.id })), columns === "inputs" ? await inputColumnsOf(waitlist.id) : []), options.output);
      if (options.output !== undefined) {
        const result = { exported, format, output: options.output };
        emit(options, result, () => `Exported ${exported} signups to ${options.output}.`);
      }
    });
}
