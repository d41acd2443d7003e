import { parentPort } from "node:worker_threads";
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
 * Answers the calls that arrived together in one batch of up to `maxBatch` (a group commit: one
 * transaction for all of them): `handle` gets their messages and the earliest of their deadlines, and
 * gives one outcome per message, in order. The calls that arrive while a batch runs make the next one.
 */
export function answerBatches<Message>(handle: (messages: Message[], deadline: number | undefined) => Promise<Outcome[]>, maxBatch: number): void {
  const queue: Call[] = [];
  let scheduled = false;
  let running = false;
  const flush = async () => {
    scheduled = false;
    const now = Date.now();
    const batch = queue.splice(0, maxBatch).filter((call) => {
      if (!isPastDeadline(call, now)) return true;
      parentPort!.postMessage({ id: call.id, error: WAITED_TOO_LONG });
      return false;
    });
    if (batch.length === 0) {
      if (queue.length > 0) schedule();
      return;
    }
    const deadlines = batch.flatMap((call) => (call.deadline === undefined ? [] : [call.deadline]));
    running = true;
    try {
      const outcomes = await handle(
        batch.map((call) => call.message as Message),
        deadlines.length > 0 ? Math.min(...deadlines) : undefined,
      );
      outcomes.forEach((outcome, index) => parentPort!.postMessage(answerOf(batch[index]!.id, outcome)));
    } catch (error) {
      for (const call of batch) parentPort!.postMessage(answerOf(call.id, { error }));
    } finally {
      running = false;
      if (queue.length > 0) schedule();
    }
  };
  const schedule = () => {
    if (scheduled || running) return;
    scheduled = true;
    setImmediate(() => void flush());
  };
  parentPort!.on("message", (call: Call) => {
    queue.push(call);
    schedule();
  });
}
