import "server-only";
import { extname } from "node:path";
import { z } from "zod";

// The options of an import, one schema for the CLI (`signups import`) and the dashboard's upload.

export type ImportFormat = "csv" | "json" | "ndjson";

/** The format of an import file follows its extension. */
export const IMPORT_FORMATS_BY_EXTENSION: Readonly<Record<string, ImportFormat>> = { ".csv": "csv", ".json": "json", ".ndjson": "ndjson", ".jsonl": "ndjson" };

/** The format a file name's extension (any case) gives, if any. */
export function importFormatOf(name: string): ImportFormat | undefined {
  return IMPORT_FORMATS_BY_EXTENSION[extname(name).toLowerCase()];
}

/** `--delimiter` / the upload's delimiter: one character (not a quote or a line break), or the word tab. */
export const importDelimiterSchema = z
  .string()
  .transform((value) => (value === "tab" ? "\t" : value))
  .refine((value) => Array.from(value).length === 1 && !`"\r\n`.includes(value))
  .optional()
  .describe("one character (not a quote or a line break) or the word tab");

/** The name of an uploaded file: only its extension is used (the format), never the name itself. */
export const importFileNameSchema = z
  .string()
  .max(255)
  .refine((name) => importFormatOf(name) !== undefined, { message: "use a .csv, .json, .ndjson or .jsonl file" });
