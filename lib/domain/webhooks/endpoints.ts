import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { deliveries, webhookEndpoints, type WebhookEndpoint } from "@/db/schema";
import { endpointSecretAad, openText, sealText } from "@/db/sealed-secret";
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { databaseLocation } from "@/lib/store/connection";
import { preparedOnce } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { EVENT_TYPES, type EventType } from "../events";
import { getWaitlistOrThrow } from "../waitlists/queries";

// Webhook endpoints as the dashboard and the CLI manage them: every change in one transaction with
// its audit row. The signing secret is returned by addEndpoint and rotateEndpointSecret only, and
// stored encrypted under the master key (db/sealed-secret.ts).

export const MAX_ENDPOINT_URL = 2000;

/** An absolute https URL (http too with WEBHOOK_ALLOW_HTTP=1), without credentials or a fragment. */
export const endpointUrlSchema = z
  .string()
  .trim()
  .max(MAX_ENDPOINT_URL)
  .refine((text) => URL.canParse(text), "must be an absolute URL such as https://example.com/webhooks")
  .superRefine((text, context) => {
    if (!URL.canParse(text)) return;
    const url = new URL(text);
    const schemes = env().WEBHOOK_ALLOW_HTTP ? ["https:", "http:"] : ["https:"];
    if (!schemes.includes(url.protocol)) context.addIssue({ code: "custom", message: `must be an https:// URL${url.protocol === "http:" ? " (http:// only with WEBHOOK_ALLOW_HTTP=1)" : ""}` });
    if (url.username || url.password) context.addIssue({ code: "custom", message: "must not hold a user name or password: the signature authenticates the sender" });
    if (url.hash) context.addIssue({ code: "custom", message: "must not have a #fragment" });
  });

const eventTypesSchema = z
  .array(z.enum(EVENT_TYPES, { error: (issue) => `unknown event type ${JSON.stringify(issue.input)} (known: ${EVENT_TYPES.join(", ")})` }))
  .min(1)
  .transform((types) => [...new Set(types)]);

export const addEndpointSchema = z.object({
  url: endpointUrlSchema,
  waitlist: z.uuid().optional().describe("a waitlist id"),
  events: eventTypesSchema.optional(),
});
export type AddEndpointInput = z.input<typeof addEndpointSchema>;

/** `waitlist: null` and `events: null` widen an endpoint back to every waitlist and every type. */
export const updateEndpointSchema = z.object({
  url: endpointUrlSchema.optional(),
  waitlist: z.uuid().nullable().optional().describe("a waitlist id"),
  events: eventTypesSchema.nullable().optional(),
  enabled: z.boolean().optional(),
});
export type UpdateEndpointInput = z.input<typeof updateEndpointSchema>;

/** An endpoint as listed: never its secret. */
export interface EndpointView {
  id: string;
  url: string;
  waitlistId: string | null;
  eventTypes: EventType[] | null;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

function toView({ secret: _secret, ...endpoint }: WebhookEndpoint): EndpointView {
  return { ...endpoint, eventTypes: endpoint.eventTypes as EventType[] | null };
}

/** A new signing secret as Standard Webhooks writes it: `whsec_` and 24 random bytes in base64. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

function describe(endpoint: Pick<WebhookEndpoint, "url" | "waitlistId" | "eventTypes">): string {
  return `${endpoint.url} (${endpoint.waitlistId ? `waitlist ${endpoint.waitlistId}` : "every waitlist"}; ${endpoint.eventTypes ? endpoint.eventTypes.join(", ") : "every event"})`;
}

/** An endpoint as stored: its secret encrypted (openEndpointSecret gives it to sign with). */
export async function getEndpointOrThrow(id: string, db: AppDatabase = getDb()): Promise<WebhookEndpoint> {
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id.trim().toLowerCase())).all();
  if (!endpoint) throw new AppError("not_found", `No webhook endpoint has the id ${id}.`);
  return endpoint;
}

/** Every endpoint, oldest first, without secrets. */
export async function listEndpoints(db: AppDatabase = getDb()): Promise<EndpointView[]> {
  return (await db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id)).all()).map(toView);
}

/** Adds an endpoint, enabled; returns it with its secret (shown this once). */
export async function addEndpoint(actor: AuditActor, input: AddEndpointInput, db: AppDatabase = getDb()): Promise<EndpointView & { secret: string }> {
  const { url, waitlist, events } = addEndpointSchema.parse(input);
  return await writeTransaction(db, async () => {
    if (waitlist !== undefined) await getWaitlistOrThrow(waitlist, db);
    const now = new Date();
    const row: WebhookEndpoint = {
      id: randomUUID(),
      url,
      waitlistId: waitlist?.toLowerCase() ?? null,
      eventTypes: events ?? null,
      secret: newSecret(),
      enabled: true,
      disabledReason: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    await db.insert(webhookEndpoints).values({ ...row, secret: sealText(databaseLocation(db), row.secret, endpointSecretAad(row.id)) }).run();
    await recordAudit({ actor, action: "webhook.create", target: row.id, summary: `added webhook endpoint ${describe(row)}` }, db);
    return { ...toView(row), secret: row.secret };
  });
}

/** Changes an endpoint's URL, waitlist, event types or enabled state (enabling clears the failure record). */
export async function updateEndpoint(actor: AuditActor, id: string, input: UpdateEndpointInput, db: AppDatabase = getDb()): Promise<EndpointView> {
  const fields = updateEndpointSchema.parse(input);
  return await writeTransaction(db, async () => {
    const before = await getEndpointOrThrow(id, db);
    if (fields.waitlist) await getWaitlistOrThrow(fields.waitlist, db);
    const after: WebhookEndpoint = {
      ...before,
      url: fields.url ?? before.url,
      waitlistId: fields.waitlist === undefined ? before.waitlistId : (fields.waitlist?.toLowerCase() ?? null),
      eventTypes: fields.events === undefined ? before.eventTypes : fields.events,
      enabled: fields.enabled ?? before.enabled,
    };
    const changes = [
      after.url !== before.url ? `url ${before.url} → ${after.url}` : undefined,
      after.waitlistId !== before.waitlistId ? `waitlist ${before.waitlistId ?? "every"} → ${after.waitlistId ?? "every"}` : undefined,
      JSON.stringify(after.eventTypes) !== JSON.stringify(before.eventTypes) ? `events ${before.eventTypes?.join(",") ?? "every"} → ${after.eventTypes?.join(",") ?? "every"}` : undefined,
      after.enabled !== before.enabled ? (after.enabled ? "enabled" : "disabled") : undefined,
    ].filter((change) => change !== undefined);
    if (changes.length === 0) return toView(before);
    if (after.enabled && !before.enabled) Object.assign(after, { disabledReason: null, failingSince: null });
    if (!after.enabled && before.enabled) {
      after.disabledReason = "disabled by an admin";
      await failWaitingDeliveries(before.id, "the endpoint was disabled", db);
    }
    after.updatedAt = new Date();
    await db.update(webhookEndpoints).set(after).where(eq(webhookEndpoints.id, before.id)).run();
    await recordAudit({ actor, action: after.enabled === before.enabled ? "webhook.update" : after.enabled ? "webhook.enable" : "webhook.disable", target: before.id, summary: changes.join("; ") }, db);
    return toView(after);
  });
}

/** Disables an endpoint: nothing more is sent to it, and its waiting deliveries are marked failed (Resend sends one again). */
export async function disableEndpoint(actor: AuditActor, id: string, db: AppDatabase = getDb()): Promise<EndpointView> {
  return await updateEndpoint(actor, id, { enabled: false }, db);
}

/** Removes an endpoint and its deliveries. */
export async function removeEndpoint(actor: AuditActor, id: string, db: AppDatabase = getDb()): Promise<EndpointView> {
  return await writeTransaction(db, async () => {
    const endpoint = await getEndpointOrThrow(id, db);
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)).run();
    await recordAudit({ actor, action: "webhook.remove", target: endpoint.id, summary: `removed webhook endpoint ${describe(endpoint)}` }, db);
    return toView(endpoint);
  });
}

/**
 * Gives an endpoint a new secret, returned this once. Deliveries signed from now on use it: a
 * receiver should accept both secrets for a while (Standard Webhooks allows several signatures).
 */
export async function rotateEndpointSecret(actor: AuditActor, id: string, db: AppDatabase = getDb()): Promise<EndpointView & { secret: string }> {
  return await writeTransaction(db, async () => {
    const endpoint = await getEndpointOrThrow(id, db);
    const secret = newSecret();
    const updatedAt = new Date();
    await db.update(webhookEndpoints).set({ secret: sealText(databaseLocation(db), secret, endpointSecretAad(endpoint.id)), updatedAt }).where(eq(webhookEndpoints.id, endpoint.id)).run();
    await recordAudit({ actor, action: "webhook.rotate_secret", target: endpoint.id, summary: `rotated the signing secret of ${endpoint.url}` }, db);
    return { ...toView({ ...endpoint, updatedAt }), secret };
  });
}

/** An endpoint's signing secret, decrypted, to sign with (never shown). */
export function openEndpointSecret(endpoint: Pick<WebhookEndpoint, "id" | "secret">, db: AppDatabase = getDb()): string {
  return openText(databaseLocation(db), endpoint.secret, endpointSecretAad(endpoint.id));
}

/** The deliveries of an endpoint that wait (pending, or leased by a sender) are marked failed. */
export async function failWaitingDeliveries(endpointId: string, reason: string, db: AppDatabase): Promise<void> {
  await db.update(deliveries)
    .set({ state: "failed", nextAttemptAt: null, lastError: reason })
    .where(and(eq(deliveries.endpointId, endpointId), inArray(deliveries.state, ["pending", "delivering"])))
    .run();
}

/** The enabled endpoints with what the sender needs to sign and send (their secrets, decrypted: never shown). */
export async function enabledEndpointsForSending(db: AppDatabase = getDb()): Promise<Pick<WebhookEndpoint, "id" | "url" | "secret">[]> {
  // Read on every round of the sender: prepared once.
  const read = preparedOnce(db, "webhooks.enabled", () =>
    db.select({ id: webhookEndpoints.id, url: webhookEndpoints.url, secret: webhookEndpoints.secret }).from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true)).prepare(),
  );
  return (await read.all()).map((endpoint) => ({ ...endpoint, secret: openEndpointSecret(endpoint, db) }));
}
