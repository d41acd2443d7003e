import { runReadTask, type ReadTaskArgs, type ReadTaskName, type ReadTaskResult } from "@/lib/domain/reads/read-tasks";
import { readPool, type ReadPool } from "@/lib/dashboard/read-pool-client";
import { later } from "@/lib/dashboard/defer";
import { atMostAtOnce } from "@/lib/core/at-once";
import { threadCalls } from "./thread-calls";
import { THREADS } from "./threads";

// The dashboard's heavy reads (counts, facets, the chart, searches, its pages of rows) run on a few
// threads with read-only connections of their own. better-sqlite3 is synchronous: on the thread
// that serves everyone, one count over millions of rows stalls every other request, /v1 included.

export function createReadPool(size: number): ReadPool {
  const readers = Array.from({ length: size }, () => threadCalls(THREADS.reader));
  return {
    run<Name extends ReadTaskName>(name: Name, args: ReadTaskArgs<Name>): Promise<ReadTaskResult<Name>> {
      // While no reader runs (each being started again after a crash), reads run on this thread, a moment later.
      const alive = readers.filter((candidate) => candidate.alive);
      if (alive.length === 0) return later(() => runReadTask(name, args));
      const reader = alive.reduce((least, candidate) => (candidate.pending < least.pending ? candidate : least));
      return reader.call<ReadTaskResult<Name>>({ name, args });
    },
  };
}

/**
 * PostgreSQL's dashboard reads at once on the app's connection pool, up to `atOnce` side by side. The
 * database works in its own processes, so nothing here blocks this thread; one after another, as
 * SQLite's wait on this thread, the seven reads of a view of a 10M list took 1.75 s where each took
 * about 0.2 s. The default leaves half of the pool's 10 connections to `/v1` and the joins.
 */
export function provideConnectionPoolReads(atOnce = 5): void {
  const run = atMostAtOnce(atOnce);
  readPool.provide({ run: (name, args) => run(() => runReadTask(name, args)) });
}

/** Starts the pool and hands it to the dashboard's pages (which run in Next.js's module graph). */
export function provideReadPool(size: number): void {
  if (size >= 1) readPool.provide(createReadPool(size));
}
