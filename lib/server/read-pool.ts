import type { Worker } from "node:worker_threads";
import { startThread } from "@/lib/core/thread";
import { runReadTask, type ReadTaskArgs, type ReadTaskName, type ReadTaskResult } from "@/lib/domain/reads/read-tasks";
import { READ_POOL_KEY, type ReadPool } from "@/lib/dashboard/read-pool-client";
import { later } from "@/lib/dashboard/defer";

// The dashboard's heavy reads (counts, facets, the chart, searches, its pages of rows) run on a few
// threads with read-only connections of their own. better-sqlite3 is synchronous: on the thread
// that serves everyone, one count over millions of rows stalls every other request, /v1 included.

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Reader {
  worker: Worker;
  pending: Map<number, Pending>;
  alive: boolean;
}

function startReader(readers: Reader[], index: number): Reader {
  const reader: Reader = { worker: startThread("lib/server/read-worker.ts"), pending: new Map(), alive: true };
  reader.worker.on("message", ({ id, result, error }: { id: number; result?: unknown; error?: { name: string; message: string } }) => {
    const job = reader.pending.get(id);
    if (!job) return;
    reader.pending.delete(id);
    if (reader.pending.size === 0) reader.worker.unref();
    if (error) job.reject(Object.assign(new Error(error.message), { name: error.name }));
    else job.resolve(result);
  });
  // A reader that dies (out of memory, a native crash) fails its jobs and is replaced.
  reader.worker.on("error", (error) => {
    for (const job of reader.pending.values()) job.reject(error);
    reader.pending.clear();
  });
  let started = false;
  reader.worker.once("online", () => (started = true));
  // A thread that ran is replaced; one that could not even start is not retried in a loop.
  reader.worker.on("exit", () => {
    reader.alive = false;
    for (const job of reader.pending.values()) job.reject(new Error("reader thread exited"));
    reader.pending.clear();
    if (started && readers[index] === reader) readers[index] = startReader(readers, index);
    else if (!started) console.error("a reader thread could not start: its reads run on the main thread");
  });
  // Keeps the process alive only while it has work (see run).
  reader.worker.unref();
  return reader;
}

export function createReadPool(size: number): ReadPool & { close(): Promise<void> } {
  const readers: Reader[] = [];
  for (let index = 0; index < size; index++) readers.push(startReader(readers, index));
  let nextId = 0;
  return {
    run<Name extends ReadTaskName>(name: Name, args: ReadTaskArgs<Name>): Promise<ReadTaskResult<Name>> {
      const alive = readers.filter((candidate) => candidate.alive);
      if (alive.length === 0) return later(() => runReadTask(name, args));
      const reader = alive.reduce((least, candidate) => (candidate.pending.size < least.pending.size ? candidate : least));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        if (reader.pending.size === 0) reader.worker.ref();
        reader.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        reader.worker.postMessage({ id, name, args });
      });
    },
    async close() {
      const current = readers.splice(0);
      await Promise.all(current.map((reader) => reader.worker.terminate()));
    },
  };
}

/** Starts the pool and hands it to the dashboard's pages (which run in Next.js's module graph). */
export function installReadPool(size: number): void {
  if (size < 1) return;
  (globalThis as Record<string, unknown>)[READ_POOL_KEY] = createReadPool(size);
}
