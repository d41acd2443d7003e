import cluster, { type Worker } from "node:cluster";
import { postedError, toError, type Answer, type Call } from "./call-envelope";
import type { CallOptions, Caller } from "./thread-calls";
import type { WriterName, Writers } from "./writers";

// The writes of a cluster's workers (WEB_CONCURRENCY > 1) go to the primary, which runs the one
// writer of each kind (./writers.ts), over the cluster's IPC channel, in the threads' own envelope
// (./call-envelope.ts): a join keeps its deadline, an error its code.

const WRITE_CALL = "waitlist:write";
const WRITE_ANSWER = "waitlist:written";

interface WriteCall {
  type: typeof WRITE_CALL;
  writer: WriterName;
  call: Call;
}

interface WriteAnswer {
  type: typeof WRITE_ANSWER;
  answer: Answer;
}

const isWriteCall = (message: unknown): message is WriteCall => (message as WriteCall | null)?.type === WRITE_CALL;
const isWriteAnswer = (message: unknown): message is WriteAnswer => (message as WriteAnswer | null)?.type === WRITE_ANSWER;

/** The primary's side: runs a worker's write call on `writers` and answers it; false for any other message. */
export function answerWriteCall(writers: Writers, worker: Worker, message: unknown): boolean {
  if (!isWriteCall(message)) return false;
  const { writer, call } = message;
  void writers[writer]
    .call(call.message, { deadline: call.deadline })
    .then(
      (result): Answer => ({ id: call.id, result }),
      (error: unknown): Answer => ({ id: call.id, error: postedError(error) }),
    )
    // A worker that is gone has no one waiting for the answer.
    .then((answer) => worker.isConnected() && worker.send({ type: WRITE_ANSWER, answer } satisfies WriteAnswer, undefined, undefined, () => {}));
  return true;
}

/** A worker's side: the primary's writers. */
export function primaryWriters(): Writers {
  if (!cluster.isWorker) throw new Error("primaryWriters() is for a worker of the cluster");
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  process.on("message", (message: unknown) => {
    if (!isWriteAnswer(message)) return;
    const { answer } = message;
    const call = waiting.get(answer.id);
    if (!call) return;
    waiting.delete(answer.id);
    if ("error" in answer) call.reject(toError(answer.error));
    else call.resolve(answer.result);
  });
  const caller = (writer: WriterName): Caller => ({
    call<T>(message: unknown, options: CallOptions = {}): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const call: Call = { id: nextId++, message, ...(options.deadline !== undefined && { deadline: options.deadline }) };
        waiting.set(call.id, { resolve: resolve as (value: unknown) => void, reject });
        process.send!({ type: WRITE_CALL, writer, call } satisfies WriteCall, undefined, undefined, (error: Error | null) => {
          if (!error) return;
          waiting.delete(call.id);
          reject(error);
        });
      });
    },
  });
  return { join: caller("join"), status: caller("status") };
}
