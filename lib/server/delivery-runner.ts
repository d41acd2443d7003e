import { hostname } from "node:os";
import type { Worker } from "node:worker_threads";
import { env } from "@/lib/core/env";
import { startThread } from "@/lib/core/thread";

// Starts the delivery sender's thread (./delivery-thread.ts) in this server process. Every process of
// a cluster starts one; the lease in SQLite lets one of them send (lib/delivery/sender.ts).

export const STOP_SENDER_MESSAGE = "stop-sender";
/** How long after an unexpected exit the thread is started again. */
const RESTART_MS = 5_000;

let thread: Worker | undefined;
let stopping = false;

// The same lease holder for every thread this process starts: one started again after a crash goes on
// at once, where a new name would wait DELIVERY_LEASE (30 s) for the dead thread's lease to lapse.
const holder = `${hostname()}:${process.pid}:sender`;

function start(): void {
  thread = startThread("lib/server/delivery-thread.ts", { workerData: { holder } });
  thread.once("error", (error) => console.error("[delivery] the sender thread failed", error));
  thread.once("exit", (code) => {
    thread = undefined;
    if (stopping) return;
    console.error(`[delivery] the sender thread exited (code ${code}); it starts again in ${RESTART_MS / 1000} s`);
    setTimeout(start, RESTART_MS).unref();
  });
}

export function installDeliverySender(): void {
  if (env().DELIVERY_SENDER === "on") start();
}

/** Lets the sender finish its sends in flight and give its lease up (a few seconds at most). */
export async function stopDeliverySender(): Promise<void> {
  stopping = true;
  const running = thread;
  if (!running) return;
  const exited = new Promise((resolve) => running.once("exit", resolve));
  running.postMessage(STOP_SENDER_MESSAGE);
  const timer = setTimeout(() => void running.terminate(), 7_000);
  await exited;
  clearTimeout(timer);
}
