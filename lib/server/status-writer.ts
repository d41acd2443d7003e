import type { Worker } from "node:worker_threads";
import { AppError, ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import { startThread } from "@/lib/core/thread";
import { STATUS_WRITER_KEY, type StatusWriteAnswer, type StatusWriteJob } from "@/lib/domain/signups/status-write";

// /v1's status actions on one thread of their own (./status-worker.ts): better-sqlite3 is
// synchronous, and an UPDATE of 10,000 signups with their events on the serving thread would hold up
// every other request meanwhile. One thread: SQLite has one writer anyway.

interface Pending {
  resolve: (answer: StatusWriteAnswer) => void;
  reject: (error: Error) => void;
}

type PostedError = { code?: unknown; message: string; parameter?: string };

function toError(posted: PostedError): Error {
  if (typeof posted.code === "string" && posted.code in ERROR_STATUS) return new AppError(posted.code as ErrorCode, posted.message, posted.parameter);
  // A storage failure keeps its SQLite code, so the API maps it as on the serving thread.
  return Object.assign(new Error(posted.message), posted.code === undefined ? {} : { code: posted.code });
}

function startWriter(): (job: StatusWriteJob) => Promise<StatusWriteAnswer> {
  let worker: Worker | undefined;
  const pending = new Map<number, Pending>();
  let nextId = 0;
  const failAll = (error: Error) => {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  };
  const thread = () => {
    if (worker) return worker;
    const started = startThread("lib/server/status-worker.ts");
    started.on("message", ({ id, answer, error }: { id: number; answer?: StatusWriteAnswer; error?: PostedError }) => {
      const job = pending.get(id);
      if (!job) return;
      pending.delete(id);
      if (pending.size === 0) started.unref();
      if (error) job.reject(toError(error));
      else job.resolve(answer!);
    });
    started.on("error", failAll);
    // A thread that ends is started again by the next job.
    started.on("exit", () => {
      worker = undefined;
      failAll(new Error("the status writer thread exited"));
    });
    started.unref();
    worker = started;
    return started;
  };
  return (job) =>
    new Promise((resolve, reject) => {
      const target = thread();
      if (pending.size === 0) target.ref();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      target.postMessage({ id, job });
    });
}

/** Makes /v1's status actions run on the writer thread (lib/domain/signups/status-write.ts looks for it). */
export function installStatusWriter(): void {
  (globalThis as Record<symbol, unknown>)[STATUS_WRITER_KEY] = startWriter();
}
