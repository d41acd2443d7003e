import { hostname } from "node:os";
import { env } from "@/lib/core/env";
import { keepThread } from "./thread-policy";
import { THREADS } from "./threads";

// Starts the delivery sender's thread (./delivery-thread.ts) in this server process, kept running by
// the restart policy and stopped by the stop policy (./thread-policy.ts, stopThreads). Every process
// of a cluster starts one; the lease in SQLite lets one of them send (lib/delivery/sender.ts).

// The same lease holder for every thread this process starts: one started again after a crash goes on
// at once, where a new name would wait DELIVERY_LEASE (30 s) for the dead thread's lease to lapse.
const holder = `${hostname()}:${process.pid}:sender`;

export function startDeliverySender(): void {
  if (env().DELIVERY_SENDER === "on") keepThread(THREADS.deliverySender, { workerData: { holder } });
}
