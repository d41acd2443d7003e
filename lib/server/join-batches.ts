import { joinAnswer } from "@/lib/api/write-answers";
import { runJoinJobs, type JoinJob } from "@/lib/domain/joining/join";
import { writeBefore } from "@/lib/domain/write-without-blocking";
import type { BatchHandler } from "./batches";

// The joins that arrive together, in one transaction (group commit, runJoinJobs: on launch day the
// pages every join touches, the counts, the index leaves, the events, are written once per batch
// instead of once per join). It waits for the write lock no longer than the batch's earliest deadline
// (JOIN_WAIT_MS after its join was sent).

export const MAX_JOIN_BATCH = 200;

export const runJoinBatch: BatchHandler<JoinJob> = (jobs, deadline) => writeBefore(deadline, () => runJoinJobs(jobs, joinAnswer));
