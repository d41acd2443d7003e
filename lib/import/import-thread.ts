// An import on a thread of its own (started by lib/server/import-runner.ts): importSignups is
// synchronous in long stretches (the inserts of a batch, then deriving the counts and search entries
// of a million rows for half a minute), which must not stall the thread that serves requests.
// It opens its own read-write connection (getDb, DATABASE_PATH) and posts ImportEvents.
import { parentPort, workerData } from "node:worker_threads";
import { AppError } from "@/lib/core/errors";
import type { ImportEvent, ImportJob } from "@/lib/domain/imports/import-events";
import { importSignups, InvalidImportFileError } from "./import-signups";

const PROGRESS_INTERVAL_MS = 200;

function post(event: ImportEvent) {
  parentPort!.postMessage(event);
}

async function run({ waitlistId, path, delimiter, actor }: ImportJob) {
  let last = 0;
  try {
    const result = await importSignups({
      waitlistId,
      path,
      delimiter,
      actor,
      onProgress: (phase, bytesRead, totalBytes, rows) => {
        const now = Date.now();
        if (phase === "importing" && bytesRead < totalBytes && now - last < PROGRESS_INTERVAL_MS) return;
        last = now;
        post({ type: "progress", phase, bytesRead, totalBytes, rows });
      },
    });
    post({ type: "done", ...result });
  } catch (error) {
    if (error instanceof InvalidImportFileError) post({ type: "invalid", invalid: error.invalid, errors: error.errors });
    else if (error instanceof AppError) post({ type: "failed", message: error.message });
    else if ((error as { code?: string }).code === "SQLITE_BUSY") post({ type: "failed", message: "another import or write holds the database: try again in a minute" });
    else throw error;
  }
}

// An unexpected error fails the thread: its "error" event reaches the runner.
void run(workerData as ImportJob).catch((error: unknown) => {
  throw error;
});
