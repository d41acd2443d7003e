import { JOIN_WRITER_KEY, type JoinJob } from "@/lib/domain/joining/join";
import { threadCalls, type ThreadCalls } from "./thread-calls";

// Joins (the join page and POST /v1/waitlist/{id}/signup) on one thread of their own (./join-worker.ts),
// apart from the status actions' (a long invite must not hold up a launch's joins). On its own
// connection a join may wait inside SQLite for the write lock (the delivery sender's fan-out, an
// import) while the serving thread goes on; on the serving thread it could only retry every 25 ms.

function startWriter(): (job: JoinJob) => Promise<unknown> {
  let writer: ThreadCalls | undefined;
  return (job) => {
    // A thread that ended is started again by the next job.
    if (!writer?.alive) writer = threadCalls("lib/server/join-worker.ts");
    return writer.call(job);
  };
}

/** Makes joins run on the join thread (lib/domain/joining/join.ts looks for it). */
export function installJoinWriter(): void {
  (globalThis as Record<symbol, unknown>)[JOIN_WRITER_KEY] = startWriter();
}
