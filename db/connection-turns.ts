import { AsyncLocalStorage } from "node:async_hooks";

// One connection serves every caller of its process (or thread), and a transaction on it is the
// connection's state, not a handle: while a transaction awaits, a statement of another caller would
// run inside it (and commit or roll back with it). So a transaction holds its connection's turn, and
// every statement outside it waits until it ends. Inside it, its own statements run at once: the
// transaction is found by the async context its work runs in.

/** A transaction holding its connection: who it is, and when it ends. */
export interface Turn {
  readonly connection: object;
  /** Savepoints opened inside it so far (each nested transaction gets its own name). */
  savepoints: number;
  readonly ended: Promise<void>;
}

const held = new WeakMap<object, Turn>();
const current = new AsyncLocalStorage<Turn>();

/** The transaction the caller runs in on this connection, if any. */
export function callersTurn(connection: object): Turn | undefined {
  const turn = held.get(connection);
  return turn !== undefined && current.getStore() === turn ? turn : undefined;
}

/** Whether a statement of the caller's may run on the connection now: no transaction holds it, or the caller's own. */
export function mayRunNow(connection: object): boolean {
  const turn = held.get(connection);
  return turn === undefined || current.getStore() === turn;
}

/** Waits until the caller may run on the connection (see mayRunNow). */
export async function awaitTurn(connection: object): Promise<void> {
  for (let turn = held.get(connection); turn !== undefined && current.getStore() !== turn; turn = held.get(connection)) await turn.ended;
}

/**
 * Runs `work` holding the connection: `begin` opens the transaction, `work` runs in its async
 * context, and `end` closes it (committing or not), whatever happens. Call only when mayRunNow: the
 * turn is taken in the same synchronous step.
 */
export async function holdTurn<T>(connection: object, begin: () => void, work: () => Promise<T>, end: (failed: boolean) => void): Promise<T> {
  let release!: () => void;
  const turn: Turn = { connection, savepoints: 0, ended: new Promise<void>((resolve) => (release = resolve)) };
  begin();
  held.set(connection, turn);
  let failed = true;
  try {
    const result = await current.run(turn, work);
    failed = false;
    return result;
  } finally {
    try {
      end(failed);
    } finally {
      held.delete(connection);
      release();
    }
  }
}
