import cluster from "node:cluster";

// What a worker of the cluster (WEB_CONCURRENCY > 1, see ./primary.ts) leaves to the primary: the
// request log (one writer, so the lines of several workers never interleave mid-line), the one
// "listening" line, and why it could not start. A server without a cluster does all of it itself.

export const LOG_MESSAGE = "waitlist:log";
export const START_FAILED_MESSAGE = "waitlist:start-failed";

export type WorkerMessage = { type: typeof LOG_MESSAGE; text: string } | { type: typeof START_FAILED_MESSAGE; message: string };

export function isWorkerMessage(message: unknown): message is WorkerMessage {
  const type = (message as WorkerMessage | null)?.type;
  return type === LOG_MESSAGE || type === START_FAILED_MESSAGE;
}

/** Writes request log lines: to stdout, or through the primary. */
export function writeLog(text: string): void {
  // A send fails only once the primary is gone, when this worker is about to exit too.
  if (cluster.isWorker) process.send!({ type: LOG_MESSAGE, text } satisfies WorkerMessage, undefined, undefined, () => {});
  else process.stdout.write(text);
}

export function serverUrl(host: string | undefined, port: number): string {
  return `http://${host ?? "localhost"}:${port}`;
}

/** The "listening" line: a worker leaves it to the primary, which writes one for all. */
export function announceListening(url: string): void {
  if (!cluster.isWorker) console.log(JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "listening", url }));
}

/** Ends a server that cannot start with one line on stderr and exit code 1 (in a cluster the primary writes the line, once). */
export function failStart(message: string): void {
  if (!cluster.isWorker) {
    console.error(message);
    process.exit(1);
  }
  process.send!({ type: START_FAILED_MESSAGE, message } satisfies WorkerMessage, undefined, undefined, () => process.exit(1));
}
