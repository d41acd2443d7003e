import type { Worker } from "node:worker_threads";
import { startThread } from "@/lib/core/thread";
import {
  IMPORT_RUNNER_KEY,
  SERVER_STOPPED_MESSAGE,
  STOP_IMPORT_MESSAGE,
  type ImportEvent,
  type ImportJob,
  type ImportOutcome,
  type ImportRunner,
} from "@/lib/import/events";

// Each upload's import runs on a thread of its own (lib/import/import-thread.ts), with its own
// read-write connection: imports are rare, and one holds the thread for as long as it runs.

/**
 * How long a stopping import gets to roll back and answer before its thread is ended: it notices
 * between two batches, but not inside a long synchronous stretch (deriving a million rows' counts).
 * Either way nothing of it is written: its transaction never commits.
 */
const STOP_GRACE_MS = 5_000;
/** How long the uploads' responses get to write their last event once their imports have stopped. */
const FLUSH_MS = 100;

const running = new Set<Worker>();
let stopping = false;

export const runImportOnThread: ImportRunner = (job: ImportJob, onEvent: (event: ImportEvent) => void) =>
  new Promise<ImportOutcome>((resolve, reject) => {
    if (stopping) return resolve({ type: "failed", message: SERVER_STOPPED_MESSAGE });
    const thread = startThread("lib/import/import-thread.ts", { workerData: job });
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
 * Stops every running import as the server shuts down: each rolls back and its upload answers
 * SERVER_STOPPED_MESSAGE; an import that does not stop within STOP_GRACE_MS has its thread ended.
 * Resolves once their responses have had time to write that last event.
 */
export async function stopImports(): Promise<void> {
  stopping = true;
  if (running.size === 0) return;
  await Promise.all(
    [...running].map(async (thread) => {
      const exited = new Promise((resolve) => thread.once("exit", resolve));
      thread.postMessage(STOP_IMPORT_MESSAGE);
      const timer = setTimeout(() => void thread.terminate(), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
}

/** Hands the runner to the upload route (which runs in Next.js's module graph). */
export function installImportRunner(): void {
  (globalThis as Record<string, unknown>)[IMPORT_RUNNER_KEY] = runImportOnThread;
}
