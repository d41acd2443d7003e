import { hostname } from "node:os";
import { keepThread } from "./thread-policy";
import { THREADS } from "./threads";

// Starts the scheduler's thread (./scheduler-thread.ts) in this server process, kept running by the
// restart policy and stopped by the stop policy (./thread-policy.ts). Every process of a cluster
// starts one; the lease in SQLite lets one of them work.

// The same lease holder for every thread this process starts: one started again after a crash goes on at once.
const holder = `${hostname()}:${process.pid}:scheduler`;

export function startScheduler(): void {
  keepThread(THREADS.scheduler, { workerData: { holder } });
}
