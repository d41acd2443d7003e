import { randomUUID } from "node:crypto";
import { env } from "@/lib/core/env";
import { AppError } from "@/lib/core/errors";
import { recordAudit, type AuditActor } from "@/lib/domain/audit/log";
import type { Outcome } from "@/lib/domain/deliveries/sending";
import type { InvitationEmailInput } from "@/lib/domain/emails/invitation";
import { testInvitationEmail } from "@/lib/domain/emails/test-invitation";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { openEndpointSecret } from "@/lib/domain/webhooks/endpoints";
import { createMailer } from "./mailer";
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

/**
 * Sends the invitation email of a waitlist (saved, or the editor's `draft`) with sample data to `to`
 * now, through the mail server of SMTP_URL (a 409 without one), and audits it
 * (`waitlist.invitation_email_test`) with its outcome. Nothing else is recorded: no delivery, no token.
 */
export async function sendTestInvitation(actor: AuditActor, waitlistId: string, to: string, draft: InvitationEmailInput = {}): Promise<Outcome> {
  const { SMTP_URL, MAIL_FROM, DELIVERY_TIMEOUT } = env();
  const waitlist = await getWaitlistOrThrow(waitlistId);
  if (SMTP_URL === undefined) throw new AppError("conflict", "Email is not configured: set SMTP_URL and MAIL_FROM and restart the server to send a test.");
  const email = await testInvitationEmail(waitlist.id, to, draft);
  const mailer = createMailer(SMTP_URL, MAIL_FROM, DELIVERY_TIMEOUT);
  try {
    const outcome = await mailer.send(email);
    const result = outcome.kind === "sent" ? `sent (${outcome.response})` : `not sent (${outcome.error})`;
    await writeWithoutBlocking(async () => await recordAudit({ actor, action: "waitlist.invitation_email_test", target: waitlist.id, summary: `test invitation email to ${to}: ${result}` }));
    return outcome;
  } finally {
    mailer.close();
  }
}
