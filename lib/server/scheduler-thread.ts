// The scheduler's thread (lib/domain/scheduler/due-work.ts), started by ./scheduler-runner.ts: every
// SCHEDULER_TICK_MS, the process holding the scheduler's lease in SQLite runs the work due at the
// clock's time (expiries, reminders) on its own connection. Every process starts one; the lease
// lets one of them work, and each part is idempotent in its own transactions anyway.
import { parentPort, workerData } from "node:worker_threads";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { releaseSenderLease, takeSenderLease } from "@/lib/domain/deliveries/sending";
import { runDueWork, SCHEDULER_LEASE_MS, SCHEDULER_TICK_MS } from "@/lib/domain/scheduler/due-work";
import { STOP_SCHEDULER_MESSAGE } from "./threads";

const { holder } = workerData as { holder: string };
let lastFailure = "";

let ticking = false;

async function tick(): Promise<void> {
  // A tick that outlasts the interval (a long run of invitations) is not overlapped by the next.
  if (ticking) return;
  ticking = true;
  try {
    const now = Date.now();
    if (await takeSenderLease(holder, SCHEDULER_LEASE_MS, now, undefined, "scheduler")) await runDueWork(now);
    lastFailure = "";
  } catch (error) {
    // A database that cannot be written now is the server's to report (lib/sqlite/write-outage.ts); anything else once per kind, not every tick.
    const message = (error as Error).message;
    if (!storageFailureOf(error) && message !== lastFailure) console.error(`[scheduler] ${message}`);
    lastFailure = message;
  } finally {
    ticking = false;
  }
}

const timer = setInterval(() => void tick(), SCHEDULER_TICK_MS);
setImmediate(() => void tick());

parentPort!.on("message", (message: unknown) => {
  if (message !== STOP_SCHEDULER_MESSAGE) return;
  clearInterval(timer);
  void releaseSenderLease(holder, undefined, "scheduler").finally(() => process.exit(0));
});
