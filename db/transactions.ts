import { callersTurn, holdTurn } from "./connection-turns";
import type { TransactionMode } from "./engine";

/** What an engine gives the one transaction mechanism below. */
export interface TransactionSupport<Connection extends object> {
  /** The database the transaction belongs to (db/connection-turns.ts). */
  owner: object;
  /**
   * Runs `work` in a new transaction holding its connection's turn (holdTurn): begun, then committed,
   * or rolled back when it throws.
   */
  open<T>(mode: TransactionMode, work: () => Promise<T>): Promise<T>;
  /** Runs one control statement (a savepoint) on the connection. */
  exec(connection: Connection, text: string): void | Promise<void>;
  /** Whether the connection still has a transaction open (an engine may end one itself on some errors). */
  inTransaction(connection: Connection): boolean;
}

/**
 * The domain's transactions on every engine. Inside another transaction of the same caller it is a
 * savepoint of it: its failure undoes only its own writes, and the caller decides what to do with the error.
 */
export async function runTransaction<Connection extends object, T>(support: TransactionSupport<Connection>, mode: TransactionMode, work: () => Promise<T>): Promise<T> {
  const outer = callersTurn(support.owner);
  if (outer) return inSavepoint(support, outer.connection as Connection, `nested_${++outer.savepoints}`, work);
  return support.open(mode, work);
}

/**
 * A transaction on a connection every caller shares (SQLite's): it waits for the connection's turn,
 * takes it, then begins; the others wait until it has committed or rolled back.
 */
export function onSharedConnection<Connection extends object, T>(
  support: Omit<TransactionSupport<Connection>, "open">,
  connection: Connection,
  begin: string,
  work: () => Promise<T>,
): Promise<T> {
  return holdTurn(
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
