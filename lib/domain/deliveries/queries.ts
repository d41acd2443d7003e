import "server-only";
import { and, desc, eq, inArray, isNotNull, isNull, lt, lte, notInArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { deliveries, deliverySender, events, webhookEndpoints, type Delivery } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { EVENT_TYPES } from "../events";

// The delivery log (the dashboard's pages, `webhooks deliveries`), Resend, and what erasure and the
// retention period take away.

export const DELIVERY_STATES = ["pending", "delivering", "succeeded", "failed", "not_sent"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const MAX_DELIVERY_PAGE = 1000;

export const deliveryQuerySchema = z.object({
  state: z.enum(DELIVERY_STATES).optional(),
  type: z.enum(EVENT_TYPES).optional(),
  waitlist: z.uuid().optional().describe("a waitlist id"),
  endpoint: z.uuid().optional().describe("an endpoint id"),
  limit: z.coerce.number().int().min(1).max(MAX_DELIVERY_PAGE).default(100).describe(`a whole number from 1 to ${MAX_DELIVERY_PAGE}`),
  /** Only deliveries older than this id (the next page after a page ending at it). */
  before: z.coerce.number().int().min(1).optional().describe("a delivery id"),
});
export type DeliveryQuery = z.input<typeof deliveryQuerySchema>;

/** A delivery as the log shows it: its target (the endpoint's URL or the email's recipient), never a body. */
export interface DeliveryView {
  id: number;
  /** null for an email that answers no event ("already on the list"). */
  eventId: number | null;
  /** The event's type, or `already_on_list` for that email. */
  eventType: string;
  waitlistId: string;
  channel: "webhook" | "email";
  endpointId: string | null;
  /** The endpoint's URL, or the recipient's address. */
  target: string;
  state: DeliveryState;
  attempts: number;
  /** When it is tried next (pending), or when its sender's lease ends (delivering). */
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  /** The last HTTP status code or SMTP reply. */
  lastResponse: string | null;
  lastError: string | null;
  createdAt: Date;
}

const viewColumns = {
  id: deliveries.id,
  eventId: deliveries.eventId,
  eventType: deliveries.eventType,
  waitlistId: deliveries.waitlistId,
  channel: deliveries.channel,
  endpointId: deliveries.endpointId,
  target: sql<string>`coalesce(${webhookEndpoints.url}, ${deliveries.recipient}, '')`,
  state: deliveries.state,
  attempts: deliveries.attempts,
  nextAttemptAt: deliveries.nextAttemptAt,
  lastAttemptAt: deliveries.lastAttemptAt,
  lastResponse: deliveries.lastResponse,
  lastError: deliveries.lastError,
  createdAt: deliveries.createdAt,
};

/** Deliveries newest first, filtered by state, event type, waitlist and endpoint. */
export async function listDeliveries(query: DeliveryQuery = {}, db: AppDatabase = getDb()): Promise<DeliveryView[]> {
  const { state, type, waitlist, endpoint, limit, before } = deliveryQuerySchema.parse(query);
  const conditions: (SQL | undefined)[] = [
    state === undefined ? undefined : eq(deliveries.state, state),
    type === undefined ? undefined : eq(deliveries.eventType, type),
    waitlist === undefined ? undefined : eq(deliveries.waitlistId, waitlist.toLowerCase()),
    endpoint === undefined ? undefined : eq(deliveries.endpointId, endpoint.toLowerCase()),
    before === undefined ? undefined : lt(deliveries.id, before),
  ];
  return await db
    .select(viewColumns)
    .from(deliveries)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, deliveries.endpointId))
    .where(and(...conditions))
    .orderBy(desc(deliveries.id))
    .limit(limit)
    .all();
}

/** One delivery with what it sends: the webhook's JSON body, or the email's subject and text. */
export async function getDeliveryOrThrow(id: number, db: AppDatabase = getDb()): Promise<DeliveryView & Pick<Delivery, "subject" | "body">> {
  const [row] = await db
    .select({ ...viewColumns, subject: deliveries.subject, body: deliveries.body })
    .from(deliveries)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, deliveries.endpointId))
    .where(eq(deliveries.id, id))
    .all();
  if (!row) throw new AppError("not_found", `No delivery has the id ${id}.`);
  return row;
}

/**
 * Sends a delivery again as soon as the sender runs, with a fresh retry schedule (its attempts
 * count from 0 again). Refused while it is being sent, or when its endpoint is disabled.
 */
export async function resendDelivery(actor: AuditActor, id: number, db: AppDatabase = getDb()): Promise<DeliveryView> {
  return await writeTransaction(db, async () => {
    const delivery = await getDeliveryOrThrow(id, db);
    if (delivery.state === "delivering") throw new AppError("conflict", `Delivery ${id} is being sent right now.`);
    if (delivery.endpointId !== null) {
      const endpoint = await db.select({ enabled: webhookEndpoints.enabled }).from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId)).get();
      if (!endpoint?.enabled) throw new AppError("conflict", `The endpoint of delivery ${id} is disabled: enable it first (webhooks update ${delivery.endpointId} --enable).`);
    }
    const now = new Date();
    await db.update(deliveries).set({ state: "pending", attempts: 0, nextAttemptAt: now, lastError: null }).where(eq(deliveries.id, id)).run();
    await recordAudit({ actor, action: "delivery.resend", target: String(id), summary: `resent the ${delivery.eventType} ${delivery.channel} ${delivery.eventId === null ? "" : ` of event ${delivery.eventId}`} to ${delivery.channel === "email" ? "its recipient" : delivery.target}` }, db);
    return { ...delivery, state: "pending" as const, attempts: 0, nextAttemptAt: now, lastError: null };
  });
}

/** Erasure (lib/domain/signups/erase.ts): every delivery of these signups goes, sent or not, with its body and rendered email. */
export async function forgetDeliveriesOf(signupIds: readonly number[], db: AppDatabase = getDb()): Promise<number> {
  if (signupIds.length === 0) return 0;
  return (await db.delete(deliveries).where(inArray(deliveries.signupId, [...signupIds])).run()).changes;
}

/**
 * The retention period: events older than `retentionMs` that have been fanned out and have no
 * delivery waiting go, with their deliveries (bodies and rendered emails), and so do the emails of no
 * event ("already on the list") older than that which no longer wait. Returns how many events went.
 */
export async function pruneDelivered(retentionMs: number, now = Date.now(), db: AppDatabase = getDb()): Promise<number> {
  const before = new Date(now - retentionMs);
  await db.delete(deliveries).where(and(isNull(deliveries.eventId), lt(deliveries.createdAt, before), isNull(deliveries.nextAttemptAt))).run();
  const fannedOut = db.select({ last: deliverySender.lastEventId }).from(deliverySender).where(eq(deliverySender.name, "sender"));
  const waiting = db.select({ id: deliveries.eventId }).from(deliveries).where(and(isNotNull(deliveries.nextAttemptAt), isNotNull(deliveries.eventId)));
  return (await db.delete(events).where(and(lt(events.createdAt, before), lte(events.id, fannedOut), notInArray(events.id, waiting))).run()).changes;
}
