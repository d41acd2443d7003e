import { runReadTask, type ReadTaskArgs, type ReadTaskName, type ReadTaskResult } from "@/lib/domain/reads/read-tasks";
import { READ_POOL_KEY, type ReadPool } from "@/lib/dashboard/read-pool-client";
import { later } from "@/lib/dashboard/defer";
import { threadCalls, type ThreadCalls } from "./thread-calls";

// The dashboard's heavy reads (counts, facets, the chart, searches, its pages of rows) run on a few
// threads with read-only connections of their own. better-sqlite3 is synchronous: on the thread
// that serves everyone, one count over millions of rows stalls every other request, /v1 included.

function startReader(readers: ThreadCalls[], index: number): ThreadCalls {
  const reader = threadCalls("lib/server/read-worker.ts", (started) => {
    // A thread that ran is replaced; one that could not even start is not retried in a loop.
    if (started && readers[index] === reader) readers[index] = startReader(readers, index);
    else if (!started) console.error("a reader thread could not start: its reads run on the main thread");
  });
  return reader;
}

export function createReadPool(size: number): ReadPool & { close(): Promise<void> } {
  const readers: ThreadCalls[] = [];
  for (let index = 0; index < size; index++) readers.push(startReader(readers, index));
  return {
    run<Name extends ReadTaskName>(name: Name, args: ReadTaskArgs<Name>): Promise<ReadTaskResult<Name>> {
      const alive = readers.filter((candidate) => candidate.alive);
      if (alive.length === 0) return later(() => runReadTask(name, args));
      const reader = alive.reduce((least, candidate) => (candidate.pending < least.pending ? candidate : least));
      return reader.call<ReadTaskResult<Name>>({ name, args });
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
