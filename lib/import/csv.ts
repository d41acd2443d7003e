import type { Readable } from "node:stream";
import { CsvError, parse } from "csv-parse";
import { BATCH_SIZE, csvLayout, csvRow, toRecord, type CsvLayout, type ImportRecord } from "./row";

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

/**
 * Streams CSV records, in batches. The first row is the header. A malformed file (unclosed quote, wrong
 * number of cells) ends the stream with one error record.
 *
 * With `exactLines`, `line` is the record's first line in the file. Without it (csv-parse runs
 * about 40% faster without its per-record info), `line` counts records, header = 1: the same
 * number unless the file has blank lines or cells spanning lines.
 */
export async function* readCsvRecords(input: Readable, { exactLines = true }: { exactLines?: boolean } = {}): AsyncGenerator<ImportRecord[]> {
  const parser = input.pipe(parse({ bom: true, info: exactLines, skip_empty_lines: true }));
  input.on("error", (error) => parser.destroy(error));
  let layout: CsvLayout | undefined;
  let count = 0;
  let batch: ImportRecord[] = [];
  try {
    for await (const output of parser as AsyncIterable<string[] | { record: string[]; info: { lines: number } }>) {
      count++;
      const { record, info } = Array.isArray(output) ? { record: output, info: { lines: count } } : output;
      if (!layout) {
        const checked = csvLayout(record);
        if ("error" in checked) {
          yield [{ line: info.lines, error: checked.error }];
          return;
        }
        layout = checked;
        continue;
      }
      const result = csvRow(layout, record);
      // info.lines is where the record ends; a quoted cell may span lines.
      batch.push(toRecord("error" in result && exactLines ? info.lines - newlines(record) : info.lines, result));
      if (batch.length === BATCH_SIZE) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines ?? 0;
    yield [...batch, { line, error: `malformed CSV: ${describeCsvError(error)}` }];
    return;
  }
  if (batch.length > 0) yield batch;
  if (!layout) yield [{ line: 1, error: "the file is empty: expected a header row with an email column" }];
}
