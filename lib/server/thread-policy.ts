import { once } from "node:events";
import type { Worker } from "node:worker_threads";
import { startThread } from "@/lib/core/thread";

// The one restart policy and the one stop policy of the server's threads (./threads.ts lists them).

/** A thread that exits unexpectedly is started again, but no sooner than this after its last start: one that crashes as it starts does not spin. */
export const RESTART_INTERVAL_MS = 5_000;

export interface ThreadSpec {
  /** For the log: "the <name> thread". */
  name: string;
  /** The thread's file, by a typed reference (knip and readers follow it). */
  file: URL;
  /** How it is stopped: asked by `message` (without one, once its calls are answered), and ended after `graceMs` either way. */
  stop: { message?: string; graceMs: number };
}

const running = new Set<{ stop(): Promise<void> }>();

/** Stops every thread kept running (keepThread) by the stop policy, together. */
export async function stopThreads(): Promise<void> {
  await Promise.all([...running].map((each) => each.stop()));
}

/**
 * The stop policy: asks the thread to stop (`spec.stop.message`, or `ready` settling: its calls
 * answered) and ends it after `spec.stop.graceMs` if it has not exited by then.
 */
export async function stopThread(worker: Worker, spec: ThreadSpec, ready?: Promise<unknown>): Promise<void> {
  if (worker.threadId === -1) return;
  const exited = once(worker, "exit");
  const timer = setTimeout(() => void worker.terminate(), spec.stop.graceMs);
  if (spec.stop.message !== undefined) worker.postMessage(spec.stop.message);
  else void Promise.resolve(ready).then(() => worker.terminate());
  await exited;
  clearTimeout(timer);
}

export interface KeptThread {
  /** The running thread: undefined between an exit and its restart, and once stopped. */
  readonly current: Worker | undefined;
  stop(ready?: () => Promise<unknown>): Promise<void>;
}

/**
 * The restart policy: keeps one thread of `spec` running. A thread that exits (a crash, out of
 * memory, a file that does not load) is started again, RESTART_INTERVAL_MS after its last start at
 * the soonest, with one line each time; never while stopping.
 */
export function keepThread(spec: ThreadSpec, hooks: { workerData?: unknown; onStart?: (worker: Worker) => void } = {}): KeptThread {
  let current: Worker | undefined;
  let stopping = false;
  let startedAt = 0;
  let restart: NodeJS.Timeout | undefined;
  const start = () => {
    startedAt = Date.now();
    const worker = startThread(spec.file, { workerData: hooks.workerData });
    worker.on("error", (error) => console.error(`[threads] the ${spec.name} thread failed`, error));
    worker.once("exit", (code) => {
      if (current === worker) current = undefined;
      if (stopping) return;
      const delay = Math.max(0, startedAt + RESTART_INTERVAL_MS - Date.now());
      console.error(`[threads] the ${spec.name} thread exited (code ${code}); it starts again in ${Math.ceil(delay / 1000)} s`);
      restart = setTimeout(start, delay);
    });
    current = worker;
    hooks.onStart?.(worker);
  };
  const kept: KeptThread = {
    get current() {
      return current;
    },
    async stop(ready) {
      stopping = true;
      clearTimeout(restart);
      running.delete(kept);
      if (current) await stopThread(current, spec, ready?.());
    },
  };
  running.add(kept);
  start();
  return kept;
}
