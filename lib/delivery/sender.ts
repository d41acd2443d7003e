import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { threadId } from "node:worker_threads";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { eventMessageId } from "@/lib/domain/deliveries/event-body";
import { EMAIL_NOT_CONFIGURED, fanOutEvents } from "@/lib/domain/deliveries/fan-out";
import { composeEmail } from "@/lib/domain/emails/compose";
import { pruneDelivered } from "@/lib/domain/deliveries/queries";
import { claimDue, recordOutcome, releaseSenderLease, takeSenderLease, type ClaimedDelivery, type Outcome } from "@/lib/domain/deliveries/sending";
import { enabledEndpointsForSending } from "@/lib/domain/webhooks/endpoints";
import type { SenderConfig } from "./config";
import { createMailer, type Mail } from "./mailer";
import { postWebhook } from "./webhook-post";

// The sender: every process of the server runs one (on a thread of its own, lib/server/delivery-thread.ts),
// and the one holding the lease in SQLite works while the others wait for it to lapse. It fans the
// outbox out into deliveries, then claims what is due, at most DELIVERY_CONCURRENCY in flight per
// endpoint (and for the mail server), so a slow endpoint holds up only its own deliveries. An endpoint
// that failed is left alone until the schedule's first wait has passed (one probe at a time instead
// of a backlog tried and failed delivery by delivery); its first success makes its backlog due again
// (recordOutcome), so it drains at once after an outage.

/** Events fanned out per transaction. */
const FAN_OUT_BATCH = 500;
/** Transactions of fan-out per round, so that sending goes on while a large backlog is read. */
const FAN_OUT_ROUNDS = 4;
const PRUNE_EVERY_MS = 60_000;
/** Where a stopping sender's sends get to finish before it gives its lease up anyway. */
const STOP_GRACE_MS = 5_000;

export interface Sender {
  /** Stops claiming, waits for the sends in flight (a few seconds at most), and gives the lease up. */
  stop(): Promise<void>;
}

type Target = { id: string; url: string; secret: string } | null;
/** A database connection as the query layer takes it (the app's by default; a bench or test passes its own). */
type Database = Parameters<typeof fanOutEvents>[1];

/**
 * `holder` names this sender in the lease: a sender started again under the same name (the server's
 * thread after a crash) takes its lease back at once instead of waiting for it to lapse.
 */
export function startSender(
  config: SenderConfig,
  log: (message: string, error?: unknown) => void = console.error,
  db?: Database,
  holder = `${hostname()}:${process.pid}:${threadId}:${randomUUID().slice(0, 8)}`,
): Sender {
  const mailer = config.smtpUrl ? createMailer(config.smtpUrl, config.mailFrom, config.timeoutMs) : undefined;
  // A claimed delivery's lease outlasts its attempt's timeout.
  const deliveryLeaseMs = config.leaseMs + config.timeoutMs;
  const inFlight = new Map<string, number>();
  /** Endpoints that failed, until when they are left alone. */
  const pausedUntil = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let woken = false;
  let renewedAt = 0;
  let lastPrune = 0;
  let lastFailure: string | undefined;
  /** The round under way (stop() waits for it). */
  let current: Promise<void> | undefined;

  async function holdsLease(now: number): Promise<boolean> {
    // Renewed a third of the way through, so a sender that is busy never lets it lapse.
    if (now - renewedAt < config.leaseMs / 3) return true;
    if (!await takeSenderLease(holder, config.leaseMs, now, db)) return false;
    renewedAt = now;
    return true;
  }

  async function send(delivery: ClaimedDelivery, target: Target): Promise<Outcome> {
    if (target === null) {
      if (!mailer) return { kind: "not_sent", error: EMAIL_NOT_CONFIGURED };
      const text = { to: delivery.recipient ?? "", subject: delivery.subject ?? "", text: delivery.body ?? "" };
      let mail: Mail = text;
      try {
        mail = await composeEmail(delivery.waitlistId, text, undefined, db);
      } catch (error) {
        // The brand could not be read (a database busy past its timeout): the text alone still says everything.
        log(`delivery ${delivery.id}: its HTML could not be made, so it is sent as text only`, error);
      }
      return mailer.send(mail);
    }
    return postWebhook({ url: target.url, secret: target.secret, messageId: eventMessageId(delivery.eventId!), body: delivery.body ?? "", timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate });
  }

  function launch(delivery: ClaimedDelivery, target: Target): void {
    const key = target?.id ?? "";
    inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    const done: Promise<void> = send(delivery, target)
      .then(async (outcome) => {
        await recordOutcome(delivery, outcome, { schedule: config.schedule, disableAfterMs: config.disableAfterMs }, db);
        if (target === null) return;
        if (outcome.kind === "failed") pausedUntil.set(target.id, Date.now() + (config.schedule[0] ?? config.pollMs));
        else pausedUntil.delete(target.id);
      })
      .catch((error: unknown) => log(`delivery ${delivery.id}: its outcome could not be recorded (it is sent again when its lease ends)`, error))
      .finally(() => {
        inFlight.set(key, inFlight.get(key)! - 1);
        running.delete(done);
        wake();
      });
    running.add(done);
  }

  /** One round: fan out, claim what is due for every target with a free slot, send it. True when it found work. */
  async function round(): Promise<boolean> {
    const now = Date.now();
    if (!await holdsLease(now)) return false;
    let found = false;
    for (let index = 0; index < FAN_OUT_ROUNDS; index++) {
      const read = await fanOutEvents({ limit: FAN_OUT_BATCH, emailConfigured: mailer !== undefined, now }, db);
      if (read > 0) found = true;
      if (read < FAN_OUT_BATCH) break;
    }
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      await pruneDelivered(config.retentionMs, now, db);
    }
    const targets: Target[] = [...await enabledEndpointsForSending(db), null];
    for (const target of targets) {
      if (target !== null && (pausedUntil.get(target.id) ?? 0) > now) continue;
      const free = config.concurrency - (inFlight.get(target?.id ?? "") ?? 0);
      for (const delivery of await claimDue(target?.id ?? null, free, deliveryLeaseMs, now, db)) {
        found = true;
        launch(delivery, target);
      }
    }
    return found;
  }

  async function tick(): Promise<void> {
    woken = false;
    if (stopped) return;
    let again = false;
    try {
      again = await round();
      lastFailure = undefined;
    } catch (error) {
      // A database that cannot be written now (locked by an import, read-only, a full disk) is the
      // server's to report (lib/sqlite/write-outage.ts): the sender waits quietly and tries again.
      // Anything else is said once, not every round.
      const failure = error instanceof Error ? error.message : String(error);
      if (!storageFailureOf(error) && failure !== lastFailure) log("the delivery sender failed a round (it tries again every DELIVERY_POLL)", error);
      lastFailure = failure;
    }
    clearTimeout(timer);
    // A send that finished during the round woke the sender (runTick then left it to this round): its slot is free now.
    timer = setTimeout(runTick, again || woken ? 0 : config.pollMs);
  }

  /** Starts a round unless one is under way: two at once would claim past the concurrency. */
  function runTick(): void {
    if (current) return;
    current = tick().finally(() => (current = undefined));
  }

  /** Runs a round soon (a send finished: its slot is free). */
  function wake(): void {
    if (woken || stopped) return;
    woken = true;
    setImmediate(runTick);
  }

  wake();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      // A round under way may still claim and launch sends: they are waited for like the others.
      await current;
      clearTimeout(timer);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(grace);
      mailer?.close();
      await releaseSenderLease(holder, db);
    },
  };
}
