import { isPastDeadline, toError, WAITED_TOO_LONG, type Outcome } from "./call-envelope";

// Group commit, whoever calls: the messages that arrive together run as one batch of up to
// `maxBatch` (one transaction for all of them), and those that arrive while a batch runs make the next.

/** One batch's work: an outcome per message, in order, given the earliest of their deadlines. */
export type BatchHandler<Message> = (messages: Message[], deadline: number | undefined) => Promise<Outcome[]>;

/**
 * Runs each message in a batch with the others that arrived in the same turn of the event loop; one
 * whose deadline passed before its batch began is answered WAITED_TOO_LONG, unrun.
 */
export function batchRunner<Message>(handle: BatchHandler<Message>, maxBatch: number): (message: Message, deadline?: number) => Promise<Outcome> {
  const queue: { message: Message; deadline?: number; settle: (outcome: Outcome) => void }[] = [];
  let scheduled = false;
  let running = false;
  const flush = async () => {
    scheduled = false;
    const now = Date.now();
    const batch = queue.splice(0, maxBatch).filter((entry) => {
      if (!isPastDeadline(entry, now)) return true;
      entry.settle({ error: toError(WAITED_TOO_LONG) });
      return false;
    });
    if (batch.length === 0) {
      if (queue.length > 0) schedule();
      return;
    }
    const deadlines = batch.flatMap((entry) => (entry.deadline === undefined ? [] : [entry.deadline]));
    running = true;
    try {
      const outcomes = await handle(
        batch.map((entry) => entry.message),
        deadlines.length > 0 ? Math.min(...deadlines) : undefined,
      );
      outcomes.forEach((outcome, index) => batch[index]!.settle(outcome));
    } catch (error) {
      for (const entry of batch) entry.settle({ error });
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
  return (message, deadline) =>
    new Promise<Outcome>((settle) => {
      queue.push({ message, deadline, settle });
      schedule();
    });
}
