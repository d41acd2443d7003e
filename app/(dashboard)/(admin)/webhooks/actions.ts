"use server";

import { sendTestEvent } from "@/lib/delivery/send-test";
import { adminAction } from "@/lib/dashboard/admin-action";
import { auditActorOf } from "@/lib/dashboard/admin-post";
import { addEndpoint, addEndpointSchema, getEndpointOrThrow, rotateEndpointSecret } from "@/lib/domain/webhooks/endpoints";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { z } from "zod";

/** An endpoint's signing secret, in the response of the request that made it: shown this once. */
export interface SecretState {
  shown?: { id: string; url: string; secret: string };
  error?: string;
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

// Add an endpoint (the fields and rules of `webhooks add`): no event type checked means every type.
export async function addWebhook(_previous: SecretState, form: FormData): Promise<SecretState> {
  return adminAction<SecretState>("/webhooks", async (session) => {
    const events = form.getAll("events").filter((value) => typeof value === "string");
    const waitlist = text(form, "waitlist")?.trim();
    const input = addEndpointSchema.parse({ url: text(form, "url") ?? "", waitlist: waitlist || undefined, events: events.length > 0 ? events : undefined });
    const added = await writeWithoutBlocking(async () => await addEndpoint(auditActorOf(session), input));
    return { shown: { id: added.id, url: added.url, secret: added.secret } };
  });
}

// A new signing secret for the endpoint of the form's id (`webhooks rotate-secret`): the old one stops signing at once.
export async function rotateWebhookSecret(_previous: SecretState, form: FormData): Promise<SecretState> {
  return adminAction<SecretState>("/webhooks", async (session) => {
    const id = z.uuid().parse(text(form, "id")?.trim());
    const rotated = await writeWithoutBlocking(async () => await rotateEndpointSecret(auditActorOf(session), id));
    return { shown: { id: rotated.id, url: rotated.url, secret: rotated.secret } };
  });
}

/** What a test event got: delivered or not, in one sentence. */
export interface TestState {
  result?: { delivered: boolean; message: string };
  error?: string;
}

// POST a signed `webhook.test` event to the endpoint of the form's id now (`webhooks send-test`): nothing is recorded.
export async function sendWebhookTest(_previous: TestState, form: FormData): Promise<TestState> {
  return adminAction<TestState>("/webhooks", async () => {
    const endpoint = await getEndpointOrThrow(z.uuid().parse(text(form, "id")?.trim()));
    const { outcome } = await sendTestEvent(endpoint);
    return outcome.kind === "sent"
      ? { result: { delivered: true, message: `Test event delivered: HTTP ${outcome.response}.` } }
      : { result: { delivered: false, message: `Test event not delivered: ${outcome.error}` } };
  });
}
