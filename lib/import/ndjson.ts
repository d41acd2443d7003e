import type { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { objectRow, toRecord, type ImportRecord } from "./row";

/** Streams one signup object per line; blank lines are ignored. */
export async function* readNdjsonRecords(input: Readable): AsyncGenerator<ImportRecord> {
  let line = 0;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line, error: `invalid JSON: ${(error as Error).message}` };
      continue;
    }
    yield toRecord(line, objectRow(value));
  }
}
