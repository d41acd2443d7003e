import type { Worker } from "node:worker_threads";
import { startThread } from "@/lib/core/thread";
import { importRunner, SERVER_STOPPED_MESSAGE, type ImportEvent, type ImportJob, type ImportOutcome, type ImportRunner } from "@/lib/import/events";
import { stopThread } from "./thread-policy";
import { THREADS } from "./threads";

// Each upload's import runs on a thread of its own (lib/import/import-thread.ts), with its own
// read-write connection: imports are rare, and one holds the thread for as long as it runs. Not
// restarted: an import that dies fails its upload.

/** How long the uploads' responses get to write their last event once their imports have stopped. */
const FLUSH_MS = 100;

const running = new Set<Worker>();
let stopping = false;

const runImportOnThread: ImportRunner = (job: ImportJob, onEvent: (event: ImportEvent) => void) =>
  new Promise<ImportOutcome>((resolve, reject) => {
    if (stopping) return resolve({ type: "failed", message: SERVER_STOPPED_MESSAGE });
    const thread = startThread(THREADS.import.file, { workerData: job });
    running.add(thread);
    let outcome: ImportOutcome | undefined;
    thread.on("message", (event: ImportEvent) => {
      if (event.type === "done" || event.type === "invalid" || event.type === "failed") outcome = event;
      else onEvent(event);
    });
    thread.once("error", reject);
    thread.once("exit", (code) => {
      running.delete(thread);
      if (outcome) resolve(outcome);
      else if (stopping) resolve({ type: "failed", message: SERVER_STOPPED_MESSAGE });
      else reject(new Error(`the import thread exited (code ${code}) without a result`));
    });
  });

/**
 * Stops every running import as the server shuts down (the stop policy): each rolls back and its
 * upload answers SERVER_STOPPED_MESSAGE. Resolves once their responses have had time to write that
 * last event.
 */
export async function stopImports(): Promise<void> {
  stopping = true;
  if (running.size === 0) return;
  await Promise.all([...running].map((thread) => stopThread(thread, THREADS.import)));
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
}

/** Hands the runner to the upload route (which runs in Next.js's module graph). */
export function provideImportRunner(): void {
  importRunner.provide(runImportOnThread);
}
