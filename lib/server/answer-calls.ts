import { parentPort } from "node:worker_threads";
import { answerOf, isPastDeadline, WAITED_TOO_LONG, type Call, type Outcome } from "./call-envelope";

// The thread's side of ./thread-calls.ts: each call answered by one message, in the envelope of
// ./call-envelope.ts; a call whose deadline passed before its turn is answered WAITED_TOO_LONG unrun.

function run(handle: () => unknown): Outcome {
  try {
    return { result: handle() };
  } catch (error) {
    return { error };
  }
}

/** Answers each call, one at a time, with `handle`'s result or its error. */
export function answerCalls<Message>(handle: (message: Message, deadline: number | undefined) => unknown): void {
  parentPort!.on("message", (call: Call) => {
    if (isPastDeadline(call)) return parentPort!.postMessage({ id: call.id, error: WAITED_TOO_LONG });
    parentPort!.postMessage(answerOf(call.id, run(() => handle(call.message as Message, call.deadline))));
  });
}

/**
 * Answers the calls that arrived together in one batch of up to `maxBatch` (a group commit: one
 * transaction for all of them): `handle` gets their messages and the earliest of their deadlines, and
 * gives one outcome per message, in order.
 */
export function answerBatches<Message>(handle: (messages: Message[], deadline: number | undefined) => Outcome[], maxBatch: number): void {
  const queue: Call[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const now = Date.now();
    const batch = queue.splice(0, maxBatch).filter((call) => {
      if (!isPastDeadline(call, now)) return true;
      parentPort!.postMessage({ id: call.id, error: WAITED_TOO_LONG });
      return false;
    });
    if (queue.length > 0) schedule();
    if (batch.length === 0) return;
    const deadlines = batch.flatMap((call) => (call.deadline === undefined ? [] : [call.deadline]));
    const outcomes = handle(
      batch.map((call) => call.message as Message),
      deadlines.length > 0 ? Math.min(...deadlines) : undefined,
    );
    outcomes.forEach((outcome, index) => parentPort!.postMessage(answerOf(batch[index]!.id, outcome)));
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  parentPort!.on("message", (call: Call) => {
    queue.push(call);
    schedule();
  });
}
