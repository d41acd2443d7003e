import type { Readable } from "node:stream";
import { BATCH_SIZE, jsonRecord, latestOf, MAX_RECORD_BYTES, tooLargeRecord, type ImportRecord, type RowOptions } from "./row";

const NEWLINE = 10;

function lineText(bytes: Buffer, line: number): string {
  let text = bytes.toString("utf8");
  if (text.endsWith("\r")) text = text.slice(0, -1);
  return line === 1 ? text.replace(/^\uFEFF/, "") : text;
}

/**
 * Streams one signup object per line, in batches; blank lines are ignored. Lines are split on the
 * bytes (readline would buffer a line of any length): a line over MAX_RECORD_BYTES ends the stream
 * with one error record, and its rest is never read.
 */
export async function* readNdjsonRecords(input: Readable, options: RowOptions = {}): AsyncGenerator<ImportRecord[]> {
  const latest = latestOf(options);
  let line = 0;
  let batch: ImportRecord[] = [];
  // The start of a line that continues in the next chunk.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = (bytes: Buffer) => {
    line++;
    const text = lineText(bytes, line);
    if (text.trim() !== "") batch.push(jsonRecord(line, text, latest));
  };
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (pendingBytes + end - start > MAX_RECORD_BYTES) {
        yield [...batch, tooLargeRecord(line + 1)];
        return;
      }
      take(pending.length === 0 ? chunk.subarray(start, end) : Buffer.concat([...pending, chunk.subarray(start, end)]));
      pending = [];
      pendingBytes = 0;
      start = end + 1;
      // Batches of BATCH_SIZE, as the other readers: a whole chunk (1 MB, some 10,000 short lines)
      // per batch made the reading thread's batches in flight ten times the CSV reader's.
      if (batch.length === BATCH_SIZE) {
        yield batch;
        batch = [];
      }
    }
    const rest = chunk.subarray(start);
    if (pendingBytes + rest.length > MAX_RECORD_BYTES) {
      yield [...batch, tooLargeRecord(line + 1)];
      return;
    }
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  }
  if (pending.length > 0) take(Buffer.concat(pending));
  if (batch.length > 0) yield batch;
}
