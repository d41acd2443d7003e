import { AsyncLocalStorage } from "node:async_hooks";

// A transaction is a connection's state, not a handle. Where one connection serves every caller of
// a process (SQLite's, PGlite's), a statement of another caller would run inside an open transaction
// while its work awaits (and commit or roll back with it). So a transaction holds its connection's
// turn, and every statement outside it waits until it ends. Where a pool lends each transaction a
// connection of its own (postgres.js), nobody else uses that connection and nothing waits. Either
// way, the transaction's own statements find it by the async context its work runs in.

/** A transaction holding a connection: the database it belongs to, the connection, and when it ends. */
export interface Turn {
  /** What the transaction belongs to (a database's engine): how its statements find it. */
  readonly owner: object;
  /** The connection its statements run on. */
  readonly connection: object;
  /** Savepoints opened inside it so far (each nested transaction gets its own name). */
  savepoints: number;
  readonly ended: Promise<void>;
}

const held = new WeakMap<object, Turn>();
const current = new AsyncLocalStorage<Turn>();

/** The transaction the caller runs in on this database, if any. */
export function callersTurn(owner: object): Turn | undefined {
  const turn = current.getStore();
  return turn?.owner === owner && held.get(turn.connection) === turn ? turn : undefined;
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
 * Runs `work` holding the connection: waits for its turn, takes it in the same synchronous step,
 * then `begin` opens the transaction, `work` runs, and `end` closes it (committing or not), whatever
 * happens; all three in the transaction's async context.
 */
export async function holdTurn<T>(
  owner: object,
  connection: object,
  begin: () => void | Promise<void>,
  work: () => Promise<T>,
  end: (failed: boolean) => void | Promise<void>,
): Promise<T> {
  while (!mayRunNow(connection)) await awaitTurn(connection);
  let release!: () => void;
  const turn: Turn = { owner, connection, savepoints: 0, ended: new Promise<void>((resolve) => (release = resolve)) };
  held.set(connection, turn);
  try {
    await current.run(turn, begin);
  } catch (error) {
    held.delete(connection);
    release();
    throw error;
  }
  let failed = true;
  try {
    // Awaited inside the turn: a lazy statement (Drizzle's builders run when awaited) runs in it too.
    const result = await current.run(turn, async () => await work());
    failed = false;
    return result;
  } finally {
    try {
      await current.run(turn, () => end(failed));
    } finally {
      held.delete(connection);
      release();
    }
  }
}
