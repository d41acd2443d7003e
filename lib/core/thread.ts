import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts the TypeScript file `file` (a typed reference: `new URL("./read-thread.ts", import.meta.url)`,
 * which knip and readers follow) on a thread of its own. Node 20 does not pass the main thread's
 * `--import tsx` hooks on to workers, so the thread registers tsx itself before it loads the file.
 */
export function startThread(file: URL, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  return new Worker(`require("tsx/cjs"); require(${JSON.stringify(fileURLToPath(file))});`, { ...options, eval: true });
}
