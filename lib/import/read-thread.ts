// Reads and validates an import file on a thread of its own (started by readFileRecords, ./read-file.ts), so
// that parsing overlaps the inserts: on two cores an import takes about as long as its inserts alone.
// It posts each batch with the bytes read so far, and keeps at most IN_FLIGHT batches unacknowledged.
import { parentPort, workerData } from "node:worker_threads";
import { readRecords } from "./formats";
import { readStreamOf } from "./read-file";
import type { FileReadJob, FileReadMessage } from "./read-messages";

/** Batches posted and not yet taken by the importer: enough to keep both threads busy, few enough to bound memory. */
const IN_FLIGHT = 4;

let inFlight = 0;
let wake: (() => void) | undefined;
parentPort!.on("message", () => {
  inFlight--;
  wake?.();
  wake = undefined;
});

function post(message: FileReadMessage) {
  parentPort!.postMessage(message);
}

async function run({ format, fd, options }: FileReadJob) {
  const stream = readStreamOf(fd);
  try {
    for await (const records of readRecords(format, stream, options)) {
      post({ type: "batch", records, bytesRead: stream.bytesRead });
      if (++inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => (wake = resolve));
    }
    post({ type: "end" });
  } finally {
    stream.destroy();
  }
}

void run(workerData as FileReadJob).catch((error: unknown) => post({ type: "error", message: (error as Error).message, code: (error as NodeJS.ErrnoException).code }));
