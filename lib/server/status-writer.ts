import { STATUS_WRITER_KEY, type StatusWriteAnswer, type StatusWriteJob } from "@/lib/domain/signups/status-write";
import { threadCalls, type ThreadCalls } from "./thread-calls";

// The status actions of /v1 and the dashboard on one thread of their own (./status-worker.ts):
// better-sqlite3 is synchronous, and an UPDATE of 100,000 signups with their events on the serving
// thread would hold up every other request meanwhile. One thread: SQLite has one writer anyway.

function startWriter(): (job: StatusWriteJob) => Promise<StatusWriteAnswer> {
  let writer: ThreadCalls | undefined;
  return (job) => {
    // A thread that ended is started again by the next job.
    if (!writer?.alive) writer = threadCalls("lib/server/status-worker.ts");
    return writer.call<StatusWriteAnswer>(job);
  };
}

/** Makes the status actions run on the writer thread (lib/domain/signups/status-write.ts looks for it). */
export function installStatusWriter(): void {
  (globalThis as Record<symbol, unknown>)[STATUS_WRITER_KEY] = startWriter();
}
