// The join writer thread (./threads.ts, ./writers.ts): runs the joins on its own read-write
// connection, those that arrived together in one transaction (group commit, runJoinJobs: on launch
// day the pages every join touches, the counts, the index leaves, the events, go to the WAL once per
// batch instead of once per join). It waits for the write lock no longer than the batch's earliest
// deadline (JOIN_WAIT_MS after its join was sent).
// Between groups, while no join waits, it merges the email search index a step at a time
// (lib/domain/signups/search-merge.ts), never waiting for the write lock.
import { runJoinJobs, type JoinJob } from "@/lib/domain/joining/join";
import { mergeSearchStep } from "@/lib/domain/signups/search-merge";
import { writeBefore } from "@/lib/domain/write-without-blocking";
import { joinAnswer } from "@/lib/api/write-answers";
import { prepareWriterConnection } from "@/lib/sqlite/writer-connection";
import { answerBatches } from "./answer-calls";

const MAX_BATCH = 200;
/**
 * One merge step, unless another connection holds the write lock or the database refuses the write
 * (a full disk, a read-only file): then none until the next group of joins, whose own answers say why.
 */
function mergeWhileIdle(): boolean {
  try {
    return writeBefore(Date.now(), () => mergeSearchStep());
  } catch {
    return false;
  }
}

prepareWriterConnection();
answerBatches((jobs: JoinJob[], deadline) => writeBefore(deadline, () => runJoinJobs(jobs, joinAnswer)), MAX_BATCH, mergeWhileIdle);
