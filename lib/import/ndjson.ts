import type { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { BATCH_SIZE, objectRow, toRecord, type ImportRecord } from "./row";

/** Streams one signup object per line, in batches; blank lines are ignored. */
export async function* readNdjsonRecords(input: Readable): AsyncGenerator<ImportRecord[]> {
  let line = 0;
  let batch: ImportRecord[] = [];
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (text.trim() === "") continue;
    batch.push(parseLine(line, text));
    if (batch.length === BATCH_SIZE) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function parseLine(line: number, text: string): ImportRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, error: `invalid JSON: ${(error as Error).message}` };
  }
  return toRecord(line, objectRow(value));
}
