// How long a deferred query waits. React and Next need a few turns of the event loop to render
// and flush the page's first bytes; a query that blocks the thread before then delays them all.
// Best effort: on a loaded machine the shell may still leave with the counts, which costs nothing.
const DEFER_MS = 25;

/**
 * Runs a synchronous query a little later. better-sqlite3 blocks while it works, so a page that
 * wants its first rows streamed before a slow count must not start that count in the same pass.
 */
export function later<T>(work: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    }, DEFER_MS);
  });
}
