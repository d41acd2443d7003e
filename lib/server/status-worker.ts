// The writer thread of /v1's status actions (see ./status-writer.ts): runs each job on its own
// read-write connection (it may wait inside SQLite for the write lock: no request waits on this
// thread) and posts back the answer, or the error as the API maps it.
import { parentPort } from "node:worker_threads";
import { AppError } from "@/lib/core/errors";
import { runStatusWrite, type StatusWriteJob } from "@/lib/domain/signups/status-write";

parentPort!.on("message", ({ id, job }: { id: number; job: StatusWriteJob }) => {
  try {
    parentPort!.postMessage({ id, answer: runStatusWrite(job) });
  } catch (error) {
    if (error instanceof AppError) parentPort!.postMessage({ id, error: { code: error.code, message: error.message, parameter: error.parameter } });
    else parentPort!.postMessage({ id, error: { message: error instanceof Error ? error.message : String(error), code: (error as { code?: unknown } | null)?.code } });
  }
});
