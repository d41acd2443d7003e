import { checkpointsLeftToLitestream } from "@/lib/core/continuous-backup";
import { redeemWriter } from "@/lib/domain/invitations/redeem";
import { JOIN_WAIT_MS, joinWriter, type JoinWriter } from "@/lib/domain/joining/join";
import { statusWriter } from "@/lib/domain/signups/status-write";
import { batchRunner } from "./batches";
import { MAX_JOIN_BATCH, runJoinBatch } from "./join-batches";
import { threadCalls, type Caller } from "./thread-calls";
import { keepThread } from "./thread-policy";
import { THREADS } from "./threads";

// SQLite: one writer per database, whatever the worker count: joins and status actions (with the
// redeems of invite tokens) each run on one thread, so they never take turns on SQLite's one write
// lock with a sibling. A single server runs the threads itself; a cluster's primary runs them and its
// workers hand their writes over (./cluster-writers.ts). Joins stay apart from the status actions'
// thread, so that a long invite does not hold up a launch's joins.
// PostgreSQL: each process writes itself (./server.ts), its joins batched as the join thread batches them.

export type WriterName = "join" | "status";
export type Writers = Record<WriterName, Caller>;

/** The writer threads of the database and their checkpointer (none beside Litestream, which checkpoints), in the process that hosts them. */
export function startWriterThreads(): Writers {
  if (!checkpointsLeftToLitestream()) keepThread(THREADS.checkpointer);
  return { join: threadCalls(THREADS.joinWriter), status: threadCalls(THREADS.statusWriter) };
}

/** Hands the domain its writers (joins and status actions run in Next.js's module graph too). */
export function provideWriters(writers: Writers): void {
  joinWriter.provide({ write: (job) => writers.join.call(job, { deadline: Date.now() + JOIN_WAIT_MS }) });
  statusWriter.provide({ write: (job) => writers.status.call(job) });
  redeemWriter.provide({ redeem: (job) => writers.status.call({ redeem: job }) });
}

/**
 * On PostgreSQL: this process's joins, batched (a status action or a redeem runs in its request,
 * in a transaction of its own: PostgreSQL lets them wait for the write lock without holding up the others).
 */
export function provideBatchedJoins(): void {
  const run = batchRunner(runJoinBatch, MAX_JOIN_BATCH);
  joinWriter.provide({
    write: async (job) => {
      const outcome = await run(job, Date.now() + JOIN_WAIT_MS);
      if ("error" in outcome) throw outcome.error;
      return outcome.result as Awaited<ReturnType<JoinWriter["write"]>>;
    },
  });
}
