import { callersTurn, holdTurn } from "./connection-turns";

/** What an engine gives the one transaction mechanism below. */
export interface TransactionSupport<Connection extends object> {
  /** The database the transaction belongs to (db/connection-turns.ts). */
  owner: object;
  /** The connection a new transaction runs on (a pool lends one; a single connection is shared, and waited for), and how it goes back. */
  acquire(): Promise<{ connection: Connection; release: () => void }>;
  /** Runs one control statement (BEGIN, COMMIT, a savepoint) on the connection. */
  exec(connection: Connection, text: string): void | Promise<void>;
  /** Whether the connection still has a transaction open (an engine may end one itself on some errors). */
  inTransaction(connection: Connection): boolean;
}

/**
 * The domain's transactions on every engine. `begin` opens one (an engine's BEGIN, with its write
 * lock for a write transaction). Inside another transaction of the same caller it is a savepoint of
 * it: its failure undoes only its own writes, and the caller decides what to do with the error.
 */
export async function runTransaction<Connection extends object, T>(support: TransactionSupport<Connection>, begin: string, work: () => Promise<T>): Promise<T> {
  const outer = callersTurn(support.owner);
  if (outer) return inSavepoint(support, outer.connection as Connection, `nested_${++outer.savepoints}`, work);
  const { connection, release } = await support.acquire();
  try {
    return await holdTurn(
      support.owner,
      connection,
      () => support.exec(connection, begin),
      work,
      async (failed) => {
        if (!failed) {
          try {
            await support.exec(connection, "COMMIT");
            return;
          } catch (error) {
            // A commit the engine refused (a full disk) may leave the transaction open: undo it, then say why.
            if (support.inTransaction(connection)) await support.exec(connection, "ROLLBACK");
            throw error;
          }
        }
        // The engine may have rolled back already (a full disk, an interrupted statement).
        if (support.inTransaction(connection)) await support.exec(connection, "ROLLBACK");
      },
    );
  } finally {
    release();
  }
}

async function inSavepoint<Connection extends object, T>(support: TransactionSupport<Connection>, connection: Connection, name: string, work: () => Promise<T>): Promise<T> {
  await support.exec(connection, `SAVEPOINT ${name}`);
  try {
    const result = await work();
    await support.exec(connection, `RELEASE ${name}`);
    return result;
  } catch (error) {
    if (support.inTransaction(connection)) {
      await support.exec(connection, `ROLLBACK TO ${name}`);
      await support.exec(connection, `RELEASE ${name}`);
    }
    throw error;
  }
}
