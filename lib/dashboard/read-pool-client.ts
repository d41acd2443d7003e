import { runReadTask, type ReadTaskArgs, type ReadTaskName, type ReadTaskResult } from "@/lib/domain/reads/read-tasks";
import { processSlot } from "@/lib/core/process-slots";
import { later } from "./defer";

/** Runs named reads elsewhere than on the thread that serves requests. */
export interface ReadPool {
  run<Name extends ReadTaskName>(name: Name, args: ReadTaskArgs<Name>): Promise<ReadTaskResult<Name>>;
}

/** The production server's pool (lib/server/read-pool.ts provides it at start-up): SQLite's reader threads, or PostgreSQL's connection pool. */
export const readPool = processSlot<ReadPool>("read pool");

/**
 * Runs a dashboard read where the production server's pool says (a reader thread; on PostgreSQL the
 * connection pool, a few side by side), else on this thread a moment later (`next dev`, READ_THREADS=0),
 * on a read-only connection on SQLite.
 */
export function readInBackground<Name extends ReadTaskName>(name: Name, ...args: ReadTaskArgs<Name>): Promise<ReadTaskResult<Name>> {
  const pool = readPool.get();
  return pool ? pool.run(name, args) : later(() => runReadTask(name, args));
}
