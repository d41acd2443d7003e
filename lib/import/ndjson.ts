import type { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { BATCH_SIZE, jsonRecord, type ImportRecord } from "./row";

/** Streams one signup object per line, in batches; blank lines are ignored. */
export async function* readNdjsonRecords(input: Readable): AsyncGenerator<ImportRecord[]> {
  let line = 0;
  let batch: ImportRecord[] = [];
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    const text = line === 1 ? raw.replace(/^\uFEFF/, "") : raw;
    if (text.trim() === "") continue;
    batch.push(jsonRecord(line, text));
    if (batch.length === BATCH_SIZE) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
