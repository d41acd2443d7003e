// How long a deferred query waits. React and Next need a few turns of the event loop to render
// and flush the page's first bytes; a query that blocks the thread before then delays them all.
// Best effort: on a loaded machine the shell may still leave with the counts, which costs nothing.
const DEFER_MS = 25;

// Deferred queries of every request wait in one line and run one per turn of the event loop, so
// requests that arrive meanwhile (the API's) are read and answered between two of them. Without
// it, the queries of ten searches due at once ran back to back (Node runs every due timer before
// it looks at the sockets again): seconds on a large list, during which nothing else was served.
const queue: (() => Promise<void>)[] = [];
let running = false;

function runNext() {
  const job = queue.shift();
  if (!job) {
    running = false;
    return;
  }
  // A job never rejects (it settles its caller's promise instead): the next one starts a turn after it ends.
  void job().then(() => setImmediate(runNext));
}

/**
 * Runs a query a little later, after the jobs queued before it have ended. SQLite works synchronously
 * under the asynchronous API, so a page that wants its first rows streamed before a slow count must
 * not start that count in the same pass.
 */
export function later<T>(work: () => T | PromiseLike<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    setTimeout(() => {
      queue.push(async () => {
        try {
          resolve(await work());
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
