import { parentPort } from "node:worker_threads";
import { batchRunner, type BatchHandler } from "./batches";
import { answerOf, isPastDeadline, WAITED_TOO_LONG, type Call, type Outcome } from "./call-envelope";

// The thread's side of ./thread-calls.ts: each call answered by one message, in the envelope of
// ./call-envelope.ts; a call whose deadline passed before its turn is answered WAITED_TOO_LONG unrun.

async function run(handle: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { result: await handle() };
  } catch (error) {
    return { error };
  }
}

/** Answers each call, one at a time (in the order they came), with `handle`'s result or its error. */
export function answerCalls<Message>(handle: (message: Message, deadline: number | undefined) => Promise<unknown>): void {
  let previous = Promise.resolve();
  parentPort!.on("message", (call: Call) => {
    previous = previous.then(async () => {
      if (isPastDeadline(call)) return parentPort!.postMessage({ id: call.id, error: WAITED_TOO_LONG });
      parentPort!.postMessage(answerOf(call.id, await run(() => handle(call.message as Message, call.deadline))));
    });
  });
}

/**
 * Answers the calls that arrived together in one batch of up to `maxBatch` (./batches.ts: a group
 * commit), each with its outcome.
 */
export function answerBatches<Message>(handle: BatchHandler<Message>, maxBatch: number): void {
  const run = batchRunner(handle, maxBatch);
  parentPort!.on("message", (call: Call) => {
    void run(call.message as Message, call.deadline).then((outcome) => parentPort!.postMessage(answerOf(call.id, outcome)));
  });
}
