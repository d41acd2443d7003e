import type { Readable } from "node:stream";
import { extname } from "node:path";
import { AppError } from "@/lib/core/errors";
import { importFormatOf, type ImportFormat } from "@/lib/import/options";
import { readCsvRecords, type CsvOptions } from "./csv";
import { readJsonArrayRecords } from "./json-array";
import { readNdjsonRecords } from "./ndjson";
import type { ImportRecord } from "./row";

export type { ImportFormat };

/** Every reader checks created_at against the same limit; only the CSV reader takes the other options (the others always have exact line numbers). */
export type ReadOptions = CsvOptions;

const READERS: Record<ImportFormat, (input: Readable, options: ReadOptions) => AsyncGenerator<ImportRecord[]>> = {
  csv: readCsvRecords,
  json: readJsonArrayRecords,
  ndjson: readNdjsonRecords,
};

/** The format of an import file, from its extension. */
export function formatOf(path: string): ImportFormat {
  const format = importFormatOf(path);
  if (!format) {
    const extension = extname(path).toLowerCase();
    const got = extension ? `"${extension}"` : "no extension";
    throw new AppError("invalid_parameter", `cannot tell the format of ${path} (${got}): use a .csv, .json, .ndjson or .jsonl file`, "file");
  }
  return format;
}

/** The records of a file, in order, in batches. */
export function readRecords(format: ImportFormat, input: Readable, options: ReadOptions = {}): AsyncGenerator<ImportRecord[]> {
  return READERS[format](input, options);
}
