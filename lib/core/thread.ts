import { join } from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts the TypeScript file `path` (relative to the project's root, as `lib/import/read-thread.ts`)
 * on a thread of its own. Node 20 does not pass the main thread's `--import tsx` hooks on to
 * workers, so the thread registers tsx itself before it loads the file.
 */
export function startThread(path: string, options: Omit<WorkerOptions, "eval"> = {}): Worker {
  const file = join(process.cwd(), path);
  return new Worker(`require("tsx/cjs"); require(${JSON.stringify(file)});`, { ...options, eval: true });
}
