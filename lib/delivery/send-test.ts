import { randomUUID } from "node:crypto";
import { env } from "@/lib/core/env";
import type { Outcome } from "@/lib/domain/deliveries/sending";
import { openEndpointSecret } from "@/lib/domain/webhooks/endpoints";
import { postWebhook } from "./webhook-post";

/**
 * Posts a signed `webhook.test` event to the endpoint now, with the sender's timeout and target
 * rules (the CLI's `webhooks send-test`, the dashboard's Send test), signed with its secret (given as
 * stored: encrypted). Nothing is recorded.
 */
export async function sendTestEvent(endpoint: { id: string; url: string; secret: string }): Promise<{ messageId: string; outcome: Outcome }> {
  const { DELIVERY_TIMEOUT, WEBHOOK_ALLOW_PRIVATE } = env();
  const messageId = `evt_test_${randomUUID()}`;
  const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: { endpoint_id: endpoint.id } });
  return { messageId, outcome: await postWebhook({ url: endpoint.url, secret: openEndpointSecret(endpoint), messageId, body, timeoutMs: DELIVERY_TIMEOUT, allowPrivate: WEBHOOK_ALLOW_PRIVATE }) };
}
