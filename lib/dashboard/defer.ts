// How long a deferred query waits. React and Next need a few turns of the event loop to render
// and flush the page's first bytes; a query that blocks the thread before then delays them all.
// Best effort: on a loaded machine the shell may still leave with the counts, which costs nothing.
const DEFER_MS = 25;

// Deferred queries of every request wait in one line and run one per turn of the event loop, so
// requests that arrive meanwhile (the API's) are read and answered between two of them. Without
// it, the queries of ten searches due at once ran back to back (Node runs every due timer before
// it looks at the sockets again): seconds on a large list, during which nothing else was served.
const queue: (() => void)[] = [];
let running = false;

function runNext() {
  const job = queue.shift();
  if (!job) {
    running = false;
    return;
  }
  job();
  setImmediate(runNext);
}

/**
 * Runs a synchronous query a little later. better-sqlite3 blocks while it works, so a page that
 * wants its first rows streamed before a slow count must not start that count in the same pass.
 */
export function later<T>(work: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      queue.push(() => {
        try {
          resolve(work());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      if (!running) {
        running = true;
        setImmediate(runNext);
      }
    }, DEFER_MS);
  });
}
