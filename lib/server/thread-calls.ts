import type { Worker } from "node:worker_threads";
import { toError, type Answer, type Call } from "./call-envelope";
import { keepThread, type ThreadSpec } from "./thread-policy";

// The caller's side of a thread that answers calls (./answer-calls.ts is the thread's), kept running
// by the restart policy (./thread-policy.ts).

export interface CallOptions {
  /** Ms since the epoch after which the call is answered "busy" rather than run (./call-envelope.ts). */
  deadline?: number;
}

/** Whatever runs calls and answers them: a thread of this process, or the primary's (./cluster-writers.ts). */
export interface Caller {
  call<T>(message: unknown, options?: CallOptions): Promise<T>;
}

export interface ThreadCalls extends Caller {
  /** How many calls wait for their answer. */
  readonly pending: number;
  /** True while a thread runs (false between a crash and its restart: calls made meanwhile wait for it). */
  readonly alive: boolean;
}

type Waiting = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/**
 * Starts `spec`'s thread and calls it: each call's promise settles with its answer, and every waiting
 * call fails when the thread dies (calls made before it is started again wait for it). The thread
 * keeps the process alive only while calls wait.
 */
export function threadCalls(spec: ThreadSpec): ThreadCalls {
  const waiting = new Map<number, Waiting>();
  const unposted: Call[] = [];
  let drained: (() => void) | undefined;
  let nextId = 0;
  const failAll = (error: Error) => {
    for (const call of waiting.values()) call.reject(error);
    waiting.clear();
    drained?.();
  };
  const attach = (worker: Worker) => {
    worker.on("message", (answer: Answer) => {
      const call = waiting.get(answer.id);
      if (!call) return;
      waiting.delete(answer.id);
      if (waiting.size === 0) {
        worker.unref();
        drained?.();
      }
      if ("error" in answer) call.reject(toError(answer.error));
      else call.resolve(answer.result);
    });
    // A thread that dies (out of memory, a native crash) fails its calls.
    worker.on("error", failAll);
    worker.once("exit", () => failAll(new Error(`the ${spec.name} thread exited`)));
    for (const call of unposted.splice(0)) worker.postMessage(call);
    if (waiting.size === 0) worker.unref();
  };
  const kept = keepThread(spec, { onStart: attach });
  const calls: ThreadCalls & { stop(): Promise<void> } = {
    get pending() {
      return waiting.size;
    },
    get alive() {
      return kept.current !== undefined;
    },
    call<T>(message: unknown, options: CallOptions = {}): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const call: Call = { id: nextId++, message, ...(options.deadline !== undefined && { deadline: options.deadline }) };
        waiting.set(call.id, { resolve: resolve as (value: unknown) => void, reject });
        const worker = kept.current;
        if (!worker) return void unposted.push(call);
        if (waiting.size === 1) worker.ref();
        worker.postMessage(call);
      });
    },
    // The stop policy's "ready": once no call waits.
    stop: () => kept.stop(() => (waiting.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve)))),
  };
  return calls;
}
