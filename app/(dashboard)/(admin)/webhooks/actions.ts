"use server";

import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/core/errors";
import { sendTestEvent } from "@/lib/delivery/send-test";
import { auditActorOf, invalidFormMessage, notAdminRefusal, refusedWriteMessage, sentence } from "@/lib/dashboard/admin-post";
import { requireSession, sessionIsAdmin } from "@/lib/dashboard/auth";
import type { DashboardSession } from "@/lib/domain/sessions";
import { addEndpoint, addEndpointSchema, getEndpointOrThrow, rotateEndpointSecret } from "@/lib/domain/webhooks/endpoints";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";
import { z } from "zod";

/** An endpoint's signing secret, in the response of the request that made it: shown this once. */
export interface SecretState {
  shown?: { id: string; url: string; secret: string };
  error?: string;
}

/** The checks and error handling of keys/actions.ts: refuse cross-site → session → admin → write; an AppError or a refused write becomes the state's error. */
async function asAdmin<State extends { error?: string }>(work: (session: DashboardSession) => Promise<State>): Promise<State> {
  // The production server refuses a cross-site write before Next.js (lib/server/refuse.ts); this covers `next dev`.
  const refusal = crossSiteRefusal(await headers());
  if (refusal) return { error: crossSiteRefusalMessage(refusal) } as State;
  const session = await requireSession();
  if (!sessionIsAdmin(session)) return { error: notAdminRefusal(session) } as State;
  try {
    const state = await work(session);
    revalidatePath("/webhooks");
    return state;
  } catch (error) {
    if (error instanceof z.ZodError) return { error: invalidFormMessage(error) } as State;
    if (error instanceof AppError && error.status < 500) return { error: `${sentence(error.message)} Nothing was changed.` } as State;
    const refused = refusedWriteMessage(error);
    if (refused !== undefined) return { error: refused } as State;
    throw error;
  }
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

// Add an endpoint (the fields and rules of `webhooks add`): no event type checked means every type.
export async function addWebhook(_previous: SecretState, form: FormData): Promise<SecretState> {
  return asAdmin<SecretState>(async (session) => {
    const events = form.getAll("events").filter((value) => typeof value === "string");
    const waitlist = text(form, "waitlist")?.trim();
    const input = addEndpointSchema.parse({ url: text(form, "url") ?? "", waitlist: waitlist || undefined, events: events.length > 0 ? events : undefined });
    const added = await writeWithoutBlocking(() => addEndpoint(auditActorOf(session), input));
    return { shown: { id: added.id, url: added.url, secret: added.secret } };
  });
}

// A new signing secret for the endpoint of the form's id (`webhooks rotate-secret`): the old one stops signing at once.
export async function rotateWebhookSecret(_previous: SecretState, form: FormData): Promise<SecretState> {
  return asAdmin<SecretState>(async (session) => {
    const id = z.uuid().parse(text(form, "id")?.trim());
    const rotated = await writeWithoutBlocking(() => rotateEndpointSecret(auditActorOf(session), id));
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
  return asAdmin<TestState>(async () => {
    const endpoint = getEndpointOrThrow(z.uuid().parse(text(form, "id")?.trim()));
    const { outcome } = await sendTestEvent(endpoint);
    return outcome.kind === "sent"
      ? { result: { delivered: true, message: `Test event delivered: HTTP ${outcome.response}.` } }
      : { result: { delivered: false, message: `Test event not delivered: ${outcome.error}` } };
  });
}
