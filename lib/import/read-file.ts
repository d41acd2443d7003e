import { createReadStream, read, type ReadStream } from "node:fs";
import { startThread } from "@/lib/core/thread";
import { readRecords, type ImportFormat, type ReadOptions } from "./formats";
import type { FileReadJob, FileReadMessage } from "./read-messages";
import type { ImportRecord } from "./row";

/** Files smaller than this are read on the calling thread: starting a thread costs about half a second. */
export const THREAD_MIN_BYTES = 8 * 1024 * 1024;

/** A batch of records and how many bytes of the file were read to get it. */
export interface RecordBatch {
  records: ImportRecord[];
  bytesRead: number;
}

// A stream's destroy() closes its descriptor whatever autoClose says: this one leaves it open.
const KEEP_OPEN = { read, close: (_fd: number, callback: (error: null) => void) => callback(null) };

/**
 * The file open as `fd`, from its start: positional reads, so each pass (and each thread) reads it
 * whole whatever the others did; the descriptor stays open for the next pass (its owner closes it).
 */
export function readStreamOf(fd: number): ReadStream {
  return createReadStream("", { fd, start: 0, autoClose: false, highWaterMark: 1 << 20, fs: KEEP_OPEN });
}

async function* readHere(format: ImportFormat, fd: number, options: ReadOptions): AsyncGenerator<RecordBatch> {
  const stream = readStreamOf(fd);
  try {
    for await (const records of readRecords(format, stream, options)) yield { records, bytesRead: stream.bytesRead };
  } finally {
    // A reader may stop early (a malformed header or record): stop reading either way.
    stream.destroy();
  }
}

async function* readOnThread(job: FileReadJob): AsyncGenerator<RecordBatch> {
  const thread = startThread(new URL("./read-thread.ts", import.meta.url), { workerData: job });
  const queue: FileReadMessage[] = [];
  let failure: Error | undefined;
  let notify: (() => void) | undefined;
  const wake = () => {
    notify?.();
    notify = undefined;
  };
  thread.on("message", (message: FileReadMessage) => {
    queue.push(message);
    wake();
  });
  thread.on("error", (error) => {
    failure = error;
    wake();
  });
  thread.on("exit", (code) => {
    failure ??= new Error(`the thread reading the import file exited (code ${code})`);
    wake();
  });
  try {
    for (;;) {
      const message = queue.shift();
      if (!message) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (notify = resolve));
        continue;
      }
      if (message.type === "end") return;
      if (message.type === "error") throw Object.assign(new Error(message.message), { code: message.code });
      thread.postMessage("taken");
      yield message;
    }
  } finally {
    await thread.terminate();
  }
}

/**
 * The records of an import file open as `fd` (a descriptor of this process, which threads share), in
 * order, in batches. A large file is read and validated on a
 * thread of its own while the caller inserts the batches before it (at most a few batches ahead).
 */
export function readFileRecords(format: ImportFormat, fd: number, size: number, options: ReadOptions): AsyncGenerator<RecordBatch> {
  return size >= THREAD_MIN_BYTES ? readOnThread({ format, fd, options }) : readHere(format, fd, options);
}
