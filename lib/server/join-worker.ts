// The join thread (see ./join-writer.ts): runs the joins on its own read-write connection, those that
// arrived together in one transaction (group commit, runJoinJobs: on launch day the pages every join
// touches, the counts, the index leaves, the events, go to the WAL once per batch instead of once per
// join).
import { parentPort } from "node:worker_threads";
import { prepareJoinConnection, runJoinJobs, type JoinJob } from "@/lib/domain/joining/join";
import { joinAnswer } from "@/lib/api/write-answers";
import { postedError } from "./thread-calls";

const MAX_BATCH = 200;
prepareJoinConnection();
const queue: { id: number; message: JoinJob }[] = [];
let scheduled = false;

function flush(): void {
  scheduled = false;
  const batch = queue.splice(0, MAX_BATCH);
  if (queue.length > 0) schedule();
  runJoinJobs(batch.map((call) => call.message), joinAnswer).forEach((outcome, index) => {
    const { id } = batch[index]!;
    parentPort!.postMessage("error" in outcome ? { id, error: postedError(outcome.error) } : { id, result: outcome.result });
  });
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(flush);
}

parentPort!.on("message", (call: { id: number; message: JoinJob }) => {
  queue.push(call);
  schedule();
});
