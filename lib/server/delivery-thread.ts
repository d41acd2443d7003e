// The thread of the delivery sender (lib/delivery/sender.ts), started by ./delivery-runner.ts: its own
// read-write connection, and its sends and SQLite waits never hold up the thread that serves /v1.
import { parentPort, workerData } from "node:worker_threads";
import { env } from "@/lib/core/env";
import { senderConfig } from "@/lib/delivery/config";
import { startSender } from "@/lib/delivery/sender";
import { STOP_SENDER_MESSAGE } from "./threads";

const sender = startSender(senderConfig(env()), (message, error) => console.error(`[delivery] ${message}`, error ?? ""), undefined, (workerData as { holder: string }).holder);

parentPort!.on("message", (message: unknown) => {
  if (message !== STOP_SENDER_MESSAGE) return;
  void sender.stop().finally(() => process.exit(0));
});
