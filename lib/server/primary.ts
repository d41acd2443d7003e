import cluster, { type Worker } from "node:cluster";
import { env } from "@/lib/core/env";
import { isWorkerMessage, LOG_MESSAGE, type WorkerMessage } from "./cluster-link";
import { answerWriteCall } from "./cluster-writers";
import { LONGEST_THREAD_STOP_MS } from "./threads";
import { startWriterThreads } from "./writers";

// The primary of `npm start` with WEB_CONCURRENCY > 1. It serves no request itself: it starts the
// workers (each a whole server, ./server.ts, on the same port: node:cluster hands each new
// connection to the next worker; each counts its share of the limits, lib/http/limits.ts), runs the
// database's one join writer and one status writer for all of them (./writers.ts,
// ./cluster-writers.ts), writes their request logs, replaces a worker that dies, and stops them all
// on SIGTERM or SIGINT.

/** How long stopping workers get to close their connections before they are killed: longer than any of their threads' stop. */
const STOP_GRACE_MS = LONGEST_THREAD_STOP_MS + 3_000;

function logLine(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: "info", ...fields })}\n`);
}

function afterDisconnect(worker: Worker, then: () => void): void {
  if (worker.isConnected()) worker.once("disconnect", then);
  else then();
}

export function runPrimary(workerCount: number, url: string): void {
  // The writes cross as structured clones, as they do to a thread (Dates stay Dates).
  cluster.setupPrimary({ serialization: "advanced" });
  // SQLite's one writer per database serves every worker; on PostgreSQL each worker writes itself.
  const writers = env().DATABASE_URL ? undefined : startWriterThreads();
  const alive = new Set<Worker>();
  const listening = new Set<Worker>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  function stop(code: number): void {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (alive.size === 0) process.exit(exitCode);
    for (const worker of alive) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of alive) worker.process.kill("SIGKILL");
    }, STOP_GRACE_MS).unref();
  }

  function onWorkerMessage(worker: Worker, message: WorkerMessage): void {
    if (message.type === LOG_MESSAGE) {
      process.stdout.write(message.text);
    } else if (!stopping) {
      console.error(message.message);
      stop(1);
    }
  }

  cluster.on("message", (worker, message: unknown) => {
    if (writers && answerWriteCall(writers, worker, message)) return;
    if (isWorkerMessage(message)) onWorkerMessage(worker, message);
  });

  cluster.on("listening", (worker) => {
    listening.add(worker);
    if (announced) return logLine({ msg: "worker started", pid: worker.process.pid });
    if (listening.size < workerCount) return;
    announced = true;
    logLine({ msg: "listening", url, workers: [...listening].map((each) => each.process.pid) });
  });

  cluster.on("exit", (worker, code, signal) => {
    alive.delete(worker);
    const served = listening.delete(worker);
    if (stopping) {
      if (alive.size === 0) process.exit(exitCode);
      return;
    }
    // One that never got to listen (a bad build, a port in use) would fail again: stop instead, once
    // its last message (why it could not start) is read, which may come after its exit.
    if (!served) {
      return afterDisconnect(worker, () => {
        if (!stopping) console.error(`error: a worker exited with ${signal ?? `code ${code}`} before it could serve`);
        stop(1);
      });
    }
    logLine({ level: "error", msg: "worker exited", pid: worker.process.pid, code, signal });
    alive.add(cluster.fork());
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(0));
  for (let index = 0; index < workerCount; index++) alive.add(cluster.fork());
}
