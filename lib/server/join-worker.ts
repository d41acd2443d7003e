// The join writer thread (./threads.ts, ./writers.ts): runs the joins on its own read-write
// connection, those that arrived together in one transaction (group commit, runJoinJobs: on launch
// day the pages every join touches, the counts, the index leaves, the events, go to the WAL once per
// batch instead of once per join). It waits for the write lock no longer than the batch's earliest
// deadline (JOIN_WAIT_MS after its join was sent).
import { runJoinJobs, type JoinJob } from "@/lib/domain/joining/join";
import { writeBefore } from "@/lib/domain/write-without-blocking";
import { joinAnswer } from "@/lib/api/write-answers";
import { prepareWriterConnection } from "@/lib/sqlite/writer-connection";
import { answerBatches } from "./answer-calls";

const MAX_BATCH = 200;
prepareWriterConnection();
answerBatches((jobs: JoinJob[], deadline) => writeBefore(deadline, () => runJoinJobs(jobs, joinAnswer)), MAX_BATCH);
