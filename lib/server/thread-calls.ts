import { parentPort, type Worker } from "node:worker_threads";
import { AppError, ERROR_STATUS, type ErrorCode } from "@/lib/core/errors";
import { startThread } from "@/lib/core/thread";

// Calls into a worker thread, each answered by one message: the caller's side (threadCalls) and the
// thread's (answerCalls). An error crosses as its name, message, code and parameter: an AppError
// comes back an AppError, a storage failure keeps its SQLite code, so each maps as on the caller's thread.

type PostedError = { name: string; message: string; code?: unknown; parameter?: string };

/** An error as it crosses to the caller's thread. */
export function postedError(error: unknown): PostedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const { code, parameter } = error as { code?: unknown; parameter?: string };
  return { name: error.name, message: error.message, code, parameter };
}

function toError(posted: PostedError): Error {
  if (typeof posted.code === "string" && posted.code in ERROR_STATUS) return new AppError(posted.code as ErrorCode, posted.message, posted.parameter);
  return Object.assign(new Error(posted.message), { name: posted.name }, posted.code === undefined ? {} : { code: posted.code });
}

export interface ThreadCalls {
  readonly worker: Worker;
  /** How many calls wait for their answer. */
  readonly pending: number;
  /** False once the thread has exited. */
  readonly alive: boolean;
  call<T>(message: unknown): Promise<T>;
}

/**
 * Starts the file `path` on a thread and calls it: each call's promise settles with its answer, and
 * every waiting call fails when the thread dies. The thread keeps the process alive only while calls
 * wait. `onExit` hears whether the thread had started before it exited.
 */
export function threadCalls(path: string, onExit?: (started: boolean) => void): ThreadCalls {
  const worker = startThread(path);
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let alive = true;
  let started = false;
  const failAll = (error: Error) => {
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  worker.on("message", ({ id, result, error }: { id: number; result?: unknown; error?: PostedError }) => {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    if (error) call.reject(toError(error));
    else call.resolve(result);
  });
  worker.once("online", () => (started = true));
  // A thread that dies (out of memory, a native crash) fails its calls.
  worker.on("error", failAll);
  worker.on("exit", () => {
    alive = false;
    failAll(new Error(`the thread of ${path} exited`));
    onExit?.(started);
  });
  worker.unref();
  return {
    worker,
    get pending() {
      return pending.size;
    },
    get alive() {
      return alive;
    },
    call<T>(message: unknown): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (pending.size === 0) worker.ref();
        const id = nextId++;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        worker.postMessage({ id, message });
      });
    },
  };
}

/** The thread's side: answers each call with `handle`'s result, or its error. */
export function answerCalls<Message>(handle: (message: Message) => unknown): void {
  parentPort!.on("message", ({ id, message }: { id: number; message: Message }) => {
    try {
      parentPort!.postMessage({ id, result: handle(message) });
    } catch (error) {
      parentPort!.postMessage({ id, error: postedError(error) });
    }
  });
}
