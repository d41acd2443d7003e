import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { IMPORT_RUNNER_KEY, type ImportEvent, type ImportJob, type ImportOutcome, type ImportRunner } from "@/lib/domain/imports/import-events";

// Each upload's import runs on a thread of its own (lib/import/import-thread.ts), with its own
// read-write connection: imports are rare, and one holds the thread for as long as it runs.

const THREAD_FILE = join(process.cwd(), "lib", "import", "import-thread.ts");
// Node 20 does not pass the main thread's `--import tsx` hooks on to workers: the thread registers tsx itself.
const THREAD_SOURCE = `require("tsx/cjs"); require(${JSON.stringify(THREAD_FILE)});`;

export const runImportOnThread: ImportRunner = (job: ImportJob, onEvent: (event: ImportEvent) => void) =>
  new Promise<ImportOutcome>((resolve, reject) => {
    const thread = new Worker(THREAD_SOURCE, { eval: true, workerData: job });
    let outcome: ImportOutcome | undefined;
    thread.on("message", (event: ImportEvent) => {
      if (event.type === "done" || event.type === "invalid" || event.type === "failed") outcome = event;
      else onEvent(event);
    });
    thread.once("error", reject);
    thread.once("exit", (code) => (outcome ? resolve(outcome) : reject(new Error(`the import thread exited (code ${code}) without a result`))));
  });

/** Hands the runner to the upload route (which runs in Next.js's module graph). */
export function installImportRunner(): void {
  (globalThis as Record<string, unknown>)[IMPORT_RUNNER_KEY] = runImportOnThread;
}
