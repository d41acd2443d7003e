// An import on a thread of its own (started by lib/server/import-runner.ts): importSignups is
// synchronous in long stretches (the inserts of a batch, then deriving the counts and search entries
// of a million rows for half a minute), which must not stall the thread that serves requests.
// It opens its own read-write connection (getDb: DATABASE_PATH, or DATABASE_URL's pool), posts
// ImportEvents and closes it; every failure ends as a "failed" outcome, logged in one line with its message.
import { parentPort, workerData } from "node:worker_threads";
import { closeDb } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { SERVER_STOPPED_MESSAGE, type ImportEvent, type ImportJob, type ImportOutcome } from "@/lib/import/events";
import { importSignups, InvalidImportFileError } from "./import-signups";

const PROGRESS_INTERVAL_MS = 200;

const stop = new AbortController();
// The runner's only message is STOP_IMPORT_MESSAGE. Unreferenced: the thread ends with its import.
parentPort!.once("message", () => stop.abort());
parentPort!.unref();

function post(event: ImportEvent) {
  parentPort!.postMessage(event);
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `${message.replace(/\s*\n\s*/g, " ")}${typeof code === "string" ? ` (${code})` : ""}`;
}

/** The outcome of a failed import; all but invalid rows are logged. */
function outcomeOf(error: unknown, { waitlistId }: ImportJob): ImportOutcome {
  if (error instanceof InvalidImportFileError) return { type: "invalid", invalid: error.invalid, errors: error.errors };
  const storageFailure = storageFailureOf(error);
  let message: string;
  let logged: string;
  if (stop.signal.aborted) [message, logged] = [SERVER_STOPPED_MESSAGE, "the server is stopping; rolled back"];
  else if (error instanceof AppError) message = logged = error.message;
  else if (storageFailure) [message, logged] = [storageFailure.message, `${storageFailure.message} (${(error as { code: string }).code})`];
  else [message, logged] = ["the import failed on the server: nothing was imported", describe(error)];
  console.error(`import into waitlist ${waitlistId} failed: ${logged}`);
  return { type: "failed", message };
}

async function run(job: ImportJob) {
  let last = 0;
  try {
    const result = await importSignups({
      waitlistId: job.waitlistId,
      fd: job.fd,
      format: job.format,
      delimiter: job.delimiter,
      actor: job.actor,
      signal: stop.signal,
      onProgress: (phase, bytesRead, totalBytes, rows) => {
        const now = Date.now();
        if (phase === "importing" && bytesRead < totalBytes && now - last < PROGRESS_INTERVAL_MS) return;
        last = now;
        post({ type: "progress", phase, bytesRead, totalBytes, rows });
      },
    });
    post({ type: "done", ...result });
  } catch (error) {
    post(outcomeOf(error, job));
  } finally {
    // The runner answers when the thread exits, and PostgreSQL's pool keeps sockets open that would hold it.
    await closeDb();
  }
}

void run(workerData as ImportJob);
