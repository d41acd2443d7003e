import "server-only";
import { and, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { deliveries, deliverySender, webhookEndpoints } from "@/db/schema";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { failWaitingDeliveries } from "../webhooks/endpoints";
import { retryDelay } from "./schedule";

// The states of a delivery and the one sender per database, as atomic SQLite statements:
//
//   pending ──claim──▶ delivering ──2xx / 250──▶ succeeded            (no mail server: not_sent)
//      ▲                   │ ──error, attempts left──▶ pending (next_attempt_at = now + retryDelay)
//      │                   │ ──error, none left────▶ failed
//      └──lease expired────┘ (a crashed sender: claimed again, so sent at least once)
//   failed, succeeded, not_sent ──resend──▶ pending
//
// `next_attempt_at` is set exactly while a delivery waits (pending: when it is due; delivering: when
// its lease ends), so one index finds what is due, and a claim's lease is its token: a result is
// recorded only by the sender whose lease still stands.

export interface ClaimedDelivery {
  id: number;
  /** null only for an email (one that answers no event). */
  eventId: number | null;
  waitlistId: string;
  channel: "webhook" | "email";
  endpointId: string | null;
  recipient: string | null;
  subject: string | null;
  body: string | null;
  attempts: number;
  /** The lease: the claim's token for recordOutcome. */
  leaseUntil: number;
}

/** The leases of delivery_sender's rows: the delivery sender's, and the scheduler's (lib/domain/scheduler, migration 0022). */
export type LeaseName = "sender" | "scheduler";

/**
 * Takes (or renews) the sender's lease (or the scheduler's: `name`) for `holder` until now + leaseMs:
 * true when it holds it, false while another holder's lease stands. One UPDATE, so two processes never both get it.
 */
export async function takeSenderLease(holder: string, leaseMs: number, now = Date.now(), db: AppDatabase = getDb(), name: LeaseName = "sender"): Promise<boolean> {
  const take = preparedOnce(db, "sender.take", () =>
    db
      .update(deliverySender)
      .set({ holder: valuePlaceholder("holder"), leaseUntil: valuePlaceholder("until") })
      .where(
        and(
          eq(deliverySender.name, sql.placeholder("name")),
          or(eq(deliverySender.holder, sql.placeholder("holder")), isNull(deliverySender.holder), isNull(deliverySender.leaseUntil), lte(deliverySender.leaseUntil, valuePlaceholder("now"))),
        ),
      )
      .prepare(),
  );
  return (await take.run({ name, holder, now, until: now + leaseMs })).changes === 1;
}

/** Gives the lease up (a sender stopping cleanly), so another process may take over at once. */
export async function releaseSenderLease(holder: string, db: AppDatabase = getDb(), name: LeaseName = "sender"): Promise<void> {
  await db.update(deliverySender).set({ holder: null, leaseUntil: null }).where(and(eq(deliverySender.name, name), eq(deliverySender.holder, holder))).run();
}

/**
 * Leases up to `limit` due deliveries of one target (an endpoint's id, or null for emails), oldest
 * due first: each counts an attempt and is due again when its lease ends unless its outcome is
 * recorded before.
 */
export async function claimDue(endpointId: string | null, limit: number, leaseMs: number, now = Date.now(), db: AppDatabase = getDb()): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  // Emails (no endpoint) and an endpoint's deliveries in statements of their own: SQLite's `endpoint_id
  // IS ?` is not PostgreSQL's SQL, and each engine seeks deliveries_due_idx by either.
  const target = endpointId === null ? isNull(deliveries.endpointId) : eq(deliveries.endpointId, sql.placeholder("endpointId"));
  const claim = preparedOnce(db, endpointId === null ? "deliveries.claim.emails" : "deliveries.claim.endpoint", () =>
    db
      .update(deliveries)
      .set({ state: "delivering", attempts: sql`${deliveries.attempts} + 1`, nextAttemptAt: valuePlaceholder("until"), lastAttemptAt: valuePlaceholder("now") })
      .where(
        inArray(
          deliveries.id,
          db
            .select({ id: deliveries.id })
            .from(deliveries)
            .where(and(target, lte(deliveries.nextAttemptAt, valuePlaceholder("now"))))
            .orderBy(deliveries.nextAttemptAt, deliveries.id)
            .limit(sql.placeholder("limit")),
        ),
      )
      .returning({
        id: deliveries.id,
        eventId: deliveries.eventId,
        waitlistId: deliveries.waitlistId,
        channel: deliveries.channel,
        endpointId: deliveries.endpointId,
        recipient: deliveries.recipient,
        subject: deliveries.subject,
        body: deliveries.body,
        attempts: deliveries.attempts,
        leaseUntil: sql<number>`${deliveries.nextAttemptAt}`,
      })
      .prepare(),
  );
  return (await claim.all({ endpointId, now, until: now + leaseMs, limit })).sort((a, b) => a.id - b.id);
}

/** `response`: the status code or SMTP reply when there was one; `not_sent`: an email with no mail server configured. */
export type Outcome = { kind: "sent"; response: string } | { kind: "failed"; response?: string; error: string } | { kind: "not_sent"; error: string };

export interface OutcomeOptions {
  schedule: readonly number[];
  /** An endpoint failing for this long without a success is disabled. */
  disableAfterMs: number;
  now?: number;
  random?: () => number;
}

/**
 * Records an attempt's outcome; false (nothing written) when the claim's lease was lost (the
 * delivery was claimed again after it expired, resent or its endpoint disabled meanwhile).
 */
export async function recordOutcome(delivery: Pick<ClaimedDelivery, "id" | "endpointId" | "attempts" | "leaseUntil">, outcome: Outcome, options: OutcomeOptions, db: AppDatabase = getDb()): Promise<boolean> {
  const now = options.now ?? Date.now();
  const update = preparedOnce(db, "deliveries.outcome", () =>
    db
      .update(deliveries)
      .set({ state: valuePlaceholder("state"), nextAttemptAt: valuePlaceholder("next"), lastResponse: valuePlaceholder("response"), lastError: valuePlaceholder("error") })
      .where(and(eq(deliveries.id, sql.placeholder("id")), eq(deliveries.state, "delivering"), eq(deliveries.nextAttemptAt, valuePlaceholder("lease"))))
      .prepare(),
  );
  return await writeTransaction(db, async () => {
    const delay = outcome.kind === "failed" ? retryDelay(delivery.attempts, options.schedule, options.random) : undefined;
    const written = (await update.run({
      id: delivery.id,
      lease: delivery.leaseUntil,
      state: outcome.kind === "sent" ? "succeeded" : outcome.kind === "not_sent" ? "not_sent" : delay === undefined ? "failed" : "pending",
      next: delay === undefined ? null : now + delay,
      response: outcome.kind === "not_sent" ? null : (outcome.response ?? null),
      error: outcome.kind === "sent" ? null : outcome.error,
    })).changes;
    if (written === 0) return false;
    if (delivery.endpointId !== null && outcome.kind !== "not_sent") await noteEndpointHealth(delivery.endpointId, outcome, now, options.disableAfterMs, db);
    return true;
  });
}

/**
 * A success clears an endpoint's failure record and makes its deliveries waiting for a retry due now;
 * a failure starts the record, and past `disableAfterMs` disables the endpoint.
 */
async function noteEndpointHealth(endpointId: string, outcome: Exclude<Outcome, { kind: "not_sent" }>, now: number, disableAfterMs: number, db: AppDatabase): Promise<void> {
  const ofEndpoint = eq(webhookEndpoints.id, sql.placeholder("endpointId"));
  const read = preparedOnce(db, "deliveries.endpointHealth", () =>
    db.select({ failingSince: sql<number | null>`${webhookEndpoints.failingSince}`, enabled: webhookEndpoints.enabled }).from(webhookEndpoints).where(ofEndpoint).prepare(),
  );
  const setFailingSince = preparedOnce(db, "deliveries.failingSince", () =>
    db.update(webhookEndpoints).set({ failingSince: valuePlaceholder("since") }).where(ofEndpoint).prepare(),
  );
  const endpoint = await read.get({ endpointId });
  if (!endpoint) return;
  if (outcome.kind === "sent") {
    if (endpoint.failingSince === null) return;
    // It is back: what waits for a retry goes now, so a backlog built up during an outage drains at once.
    await setFailingSince.run({ since: null, endpointId });
    await preparedOnce(db, "deliveries.resume", () =>
      db
        .update(deliveries)
        .set({ nextAttemptAt: valuePlaceholder("now") })
        .where(and(eq(deliveries.endpointId, sql.placeholder("endpointId")), eq(deliveries.state, "pending"), gt(deliveries.nextAttemptAt, valuePlaceholder("now"))))
        .prepare(),
    ).run({ now, endpointId });
    return;
  }
  const since = endpoint.failingSince ?? now;
  if (endpoint.failingSince === null) await setFailingSince.run({ since: now, endpointId });
  if (!endpoint.enabled || now - since < disableAfterMs) return;
  const reason = `disabled automatically: every delivery failed since ${new Date(since).toISOString()} (last: ${outcome.error})`;
  await db.update(webhookEndpoints).set({ enabled: false, disabledReason: reason, updatedAt: new Date(now) }).where(eq(webhookEndpoints.id, endpointId)).run();
  await failWaitingDeliveries(endpointId, "the endpoint was disabled after failing for too long", db);
}
