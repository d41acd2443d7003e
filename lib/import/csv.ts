import type { Readable, TransformOptions } from "node:stream";
import { CsvError, parse, type Options } from "csv-parse";
import { csvLayout, type CsvLayout } from "@/lib/domain/signups/import-columns";
import { BATCH_SIZE, csvRow, latestOf, MAX_RECORD_BYTES, toRecord, tooLargeRecord, type ImportRecord, type RowOptions } from "./row";

const DEFAULT_DELIMITER = ",";

/** The part of csv-parse's record info this reader uses. */
interface Info {
  lines: number;
  empty_lines?: number;
}

function newlines(cells: string[]): number {
  let count = 0;
  for (const cell of cells) for (let at = cell.indexOf("\n"); at !== -1; at = cell.indexOf("\n", at + 1)) count++;
  return count;
}

function describeCsvError(error: CsvError): string {
  const lengths = /expect (\d+), got (\d+)/.exec(error.message);
  if (lengths) return `the row has ${lengths[2]} cells but the header has ${lengths[1]}`;
  if (error.code === "CSV_QUOTE_NOT_CLOSED") return "a quoted cell is never closed";
  return error.message;
}

/** How much of the file's start is kept to tell which delimiter a failing header uses. */
const SNIFF_BYTES = 64 * 1024;
const DELIMITER_HINTS: Record<string, string> = {
  ",": "comma-separated: leave out --delimiter",
  ";": "semicolon-separated: use --delimiter ';'",
  "\t": "tab-separated: use --delimiter tab",
};

/** Keeps the first SNIFF_BYTES of the input as it flows, until `stop()`. */
function keepStart(input: Readable): { start(): Buffer; stop(): void } {
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= SNIFF_BYTES) input.off("data", onData);
  };
  input.on("data", onData);
  return {
    start: () => Buffer.concat(chunks).subarray(0, SNIFF_BYTES),
    stop: () => {
      input.off("data", onData);
      chunks.length = 0;
    },
  };
}

/**
 * "; it looks tab-separated: …" when the first line of the file, split by another delimiter, has an
 * email column among others. A plain split suffices for a hint, and works on a truncated line.
 */
function delimiterHint(start: Buffer, used: string): string {
  const firstLine = start.toString("utf8").replace(/^\uFEFF/, "").trimStart().split(/\r?\n/, 1)[0]!;
  for (const [delimiter, hint] of Object.entries(DELIMITER_HINTS)) {
    if (delimiter === used) continue;
    const names = firstLine.split(delimiter).map((cell) => cell.trim().replace(/^"?(.*?)"?$/, "$1").trim().toLowerCase());
    if (names.length > 1 && names.includes("email")) return `; it looks ${hint}`;
  }
  return "";
}

export interface CsvOptions extends RowOptions {
  /** Exact line numbers even where they cost speed (see readCsvRecords). */
  exactLines?: boolean;
  /** The cell delimiter, one character (default ","). */
  delimiter?: string;
}

/**
 * Streams CSV records, in batches. The first row is the header. A malformed file (unclosed quote, wrong
 * number of cells) ends the stream with one error record, as does a record over MAX_RECORD_BYTES,
 * which csv-parse stops reading once it grows past the limit.
 *
 * With `exactLines`, `line` is the record's first line in the file. Without it (csv-parse runs
 * about 40% faster without its per-record info), `line` counts records, header = 1: the same
 * number unless the file has blank lines or cells spanning lines.
 */
export async function* readCsvRecords(input: Readable, { exactLines = true, delimiter = DEFAULT_DELIMITER, ...rowOptions }: CsvOptions = {}): AsyncGenerator<ImportRecord[]> {
  const latest = latestOf(rowOptions);
  const sniffer = keepStart(input);
  const options: Options & Pick<TransformOptions, "autoDestroy"> = {
    bom: true,
    info: exactLines,
    skip_empty_lines: true,
    delimiter,
    max_record_size: MAX_RECORD_BYTES,
    // Not destroyed by an error, so the loop below still gets the records parsed before it (the
    // iterator of a destroyed stream drops them), then the error.
    autoDestroy: false,
  };
  const parser = input.pipe(parse(options));
  input.on("error", (error) => parser.destroy(error));
  let layout: CsvLayout | undefined;
  let count = 0;
  let batch: ImportRecord[] = [];
  // Where the last record ended, to tell where an oversized one starts.
  let previous: Info = { lines: 0, empty_lines: 0 };
  try {
    for await (const output of parser as AsyncIterable<string[] | { record: string[]; info: Info }>) {
      count++;
      const { record, info } = Array.isArray(output) ? { record: output, info: { lines: count } } : output;
      previous = info;
      if (!layout) {
        const checked = csvLayout(record);
        if ("error" in checked) {
          yield [{ line: info.lines, error: checked.error + delimiterHint(sniffer.start(), delimiter) }];
          return;
        }
        sniffer.stop();
        layout = checked;
        continue;
      }
      const result = csvRow(layout, record, latest);
      // info.lines is where the record ends; a quoted cell may span lines.
      batch.push(toRecord("error" in result && exactLines ? info.lines - newlines(record) : info.lines, result));
      if (batch.length === BATCH_SIZE) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const { lines = 0, empty_lines = 0 } = error as CsvError & Partial<Info>;
    if (error.code === "CSV_MAX_RECORD_SIZE") {
      // It starts after the last record and the blank lines since.
      yield [...batch, tooLargeRecord(exactLines ? previous.lines + 1 + empty_lines - (previous.empty_lines ?? 0) : count + 1)];
      return;
    }
    const hint = layout ? "" : delimiterHint(sniffer.start(), delimiter);
    yield [...batch, { line: lines, error: `malformed CSV: ${describeCsvError(error)}${hint}` }];
    return;
  } finally {
    sniffer.stop();
    parser.destroy();
  }
  if (batch.length > 0) yield batch;
  if (!layout) yield [{ line: 1, error: "the file is empty: expected a header row with an email column" }];
}
