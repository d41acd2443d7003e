import { join } from "node:path";
import { openDatabase } from "@/db/client";
import type { SenderConfig } from "@/lib/delivery/config";
import { startSender } from "@/lib/delivery/sender";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { addEndpoint } from "@/lib/domain/webhooks/endpoints";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { eventually, startReceiver } from "@/tests/e2e/support/webhook-receiver";
import { insertSignups } from "@/tests/support/insert-signups";
import { row, type Row } from "./report";

// The receiver listens on http://127.0.0.1 (read when the endpoint is added).
process.env.WEBHOOK_ALLOW_HTTP = "1";

const EVENTS = 10_000;
const TARGET_SECONDS = 30;

/**
 * 10,000 `signup.invited` events delivered by the sender (lib/delivery/sender.ts, in this process, with
 * the default concurrency of 4) to a local receiver that verifies every signature: the seconds from the
 * invite's commit until every delivery is recorded as succeeded, on a fresh database of its own.
 */
export async function deliverScenario(workDir: string, log: (line: string) => void): Promise<Row[]> {
  const scenario = `deliver ${EVENTS.toLocaleString("en")} events to a local receiver`;
  const db = openDatabase(join(workDir, "deliver.db"));
  let secret = "";
  const receiver = await startReceiver(() => secret);
  const config: SenderConfig = {
    schedule: [1_000, 5_000],
    timeoutMs: 15_000,
    disableAfterMs: 86_400_000,
    leaseMs: 30_000,
    pollMs: 100,
    concurrency: 4,
    retentionMs: 30 * 86_400_000,
    allowPrivate: true,
    smtpUrl: undefined,
    mailFrom: "bench@example.com",
  };
  try {
    secret = (await addEndpoint("cli", { url: receiver.url }, db)).secret;
    const waitlistId = (await createWaitlist({ name: "Deliver", website: "https://deliver.example" }, db)).id;
    insertSignups(waitlistId, Array.from({ length: EVENTS }, (_, index) => ({ email: `d${index}@example.com`, verified: true, referral: false, customInputs: "[]" })), db);
    await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId }, limit: EVENTS } }, db);
    const started = performance.now();
    const sender = startSender(config, (message, error) => log(`  sender: ${message} ${String(error ?? "")}`), db);
    const succeeded = db.$client.prepare("SELECT count(*) FROM deliveries WHERE state = 'succeeded'").pluck();
    await eventually("every delivery", () => succeeded.get() === EVENTS, 300_000);
    const seconds = (performance.now() - started) / 1000;
    await sender.stop();
    const invalid = receiver.received.filter((entry) => !entry.signatureValid).length;
    if (receiver.ids().size !== EVENTS || invalid > 0) throw new Error(`${scenario}: ${receiver.ids().size} distinct events, ${invalid} bad signatures`);
    log(`  ${EVENTS} events in ${seconds.toFixed(1)} s (${(EVENTS / seconds).toFixed(0)}/s), ${receiver.received.length - EVENTS} duplicates`);
    return [
      row(scenario, "until every delivery succeeded", "s", seconds, null, { appBelow: TARGET_SECONDS }),
      row(scenario, "deliveries per second", "/s", EVENTS / seconds, null),
    ];
  } finally {
    await receiver.close();
    db.$client.close();
  }
}
