// The checkpointer thread (./threads.ts, lib/sqlite/background-checkpoint.ts): on its own connection,
// copies the WAL's new pages into the database file every CHECKPOINT_EVERY_MS, so the writer threads'
// commits never do it. A checkpoint that fails (a full disk, a read-only file) is tried again at the
// next tick; the writers' own backstop checkpoint covers a long outage.
import { parentPort } from "node:worker_threads";
import { CHECKPOINT_EVERY_MS, checkpointPassive } from "@/lib/sqlite/background-checkpoint";
import { STOP_CHECKPOINTER_MESSAGE } from "./threads";

let lastFailure = "";

const timer = setInterval(() => {
  try {
    checkpointPassive();
    lastFailure = "";
  } catch (error) {
    // One line per kind of failure, not one per tick.
    const message = (error as Error).message;
    if (message !== lastFailure) console.error(`[checkpoint] ${message}`);
    lastFailure = message;
  }
}, CHECKPOINT_EVERY_MS);

parentPort!.on("message", (message: unknown) => {
  if (message !== STOP_CHECKPOINTER_MESSAGE) return;
  clearInterval(timer);
  process.exit(0);
});
