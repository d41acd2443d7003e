import { runReadTask, type ReadTaskArgs, type ReadTaskName, type ReadTaskResult } from "@/lib/domain/reads/read-tasks";
import { later } from "./defer";

/** Runs named reads elsewhere than on the thread that serves requests. */
export interface ReadPool {
  run<Name extends ReadTaskName>(name: Name, args: ReadTaskArgs<Name>): Promise<ReadTaskResult<Name>>;
}

/** Where the production server leaves its pool (lib/server/read-pool.ts): pages live in another module graph. */
export const READ_POOL_KEY = "__waitlistReadPool";

/**
 * Runs a dashboard read on a reader thread when the production server started them, else on this
 * thread a moment later (`next dev`, READ_THREADS=0), on a read-only connection either way.
 */
export function readInBackground<Name extends ReadTaskName>(name: Name, ...args: ReadTaskArgs<Name>): Promise<ReadTaskResult<Name>> {
  const pool = (globalThis as Record<string, unknown>)[READ_POOL_KEY] as ReadPool | undefined;
  return pool ? pool.run(name, args) : later(() => runReadTask(name, args));
}
