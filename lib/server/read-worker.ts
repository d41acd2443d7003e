// A reader thread of the dashboard (see ./read-pool.ts): runs named read tasks on its own read-only
// connection and posts back the result or the error's message.
import { parentPort } from "node:worker_threads";
import { runReadTask, type ReadTaskName } from "@/lib/domain/reads/read-tasks";

interface Job {
  id: number;
  name: ReadTaskName;
  args: unknown[];
}

parentPort!.on("message", ({ id, name, args }: Job) => {
  try {
    parentPort!.postMessage({ id, result: runReadTask(name, args as never) });
  } catch (error) {
    const { name: kind, message } = error instanceof Error ? error : new Error(String(error));
    parentPort!.postMessage({ id, error: { name: kind, message } });
  }
});
