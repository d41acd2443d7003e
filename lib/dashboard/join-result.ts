import "server-only";
import { env } from "@/lib/core/env";
import { joinedSignup, type JoinedSignup } from "@/lib/domain/joining/join";
import { joinSettingsOf, type JoinSettings } from "@/lib/domain/joining/settings";
import { getSignup } from "@/lib/domain/signups/queries";
import { confirmSignup, type ConfirmOutcome } from "@/lib/domain/verification/confirm";
import { readLinkToken } from "@/lib/domain/verification/link-token";
import { resendConfirmation } from "@/lib/domain/verification/resend";
import { isWaitlistId } from "@/lib/domain/waitlists/id";
import { getWaitlist } from "@/lib/domain/waitlists/queries";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { bodyTooLargeMessage, PUBLIC_FORM_MAX_BYTES, readBoundedForm } from "@/lib/http/body-limit";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";
import { plainTextResponse, seeOther } from "./admin-post";

// The join page after the form: the signup's place (by the signed token of /join/{id}/joined), the
// confirmation link of the email, and "send the email again".

const waitlistOfPath = (pathId: string) => (isWaitlistId(pathId) ? getWaitlist(pathId.toLowerCase()) : undefined);

/** The waitlist, its join settings and the signup a "joined" token names, or undefined (forged, expired, another list's, erased). */
export function joinedSignupOf(pathId: string, token: string): { waitlist: NonNullable<ReturnType<typeof getWaitlist>>; settings: JoinSettings; signup: JoinedSignup } | undefined {
  const waitlist = waitlistOfPath(pathId);
  const reading = waitlist && readLinkToken(token, "joined");
  if (!waitlist || !reading?.ok || reading.claims.waitlistId !== waitlist.id) return undefined;
  const signup = joinedSignup(waitlist.id, reading.claims.signupId);
  return signup && { waitlist, settings: joinSettingsOf(waitlist.id), signup };
}

/** The confirmation link's page: the waitlist and the token for its button, or why the link cannot confirm; undefined for an unknown waitlist. */
export function confirmLinkOf(pathId: string, token: string): { waitlistId: string; waitlistName: string; token: string; problem?: Exclude<ConfirmOutcome, "confirmed"> } | undefined {
  const waitlist = waitlistOfPath(pathId);
  if (!waitlist) return undefined;
  const link = { waitlistId: waitlist.id, waitlistName: waitlist.name, token };
  const reading = readLinkToken(token, "confirm");
  if (!reading.ok) return { ...link, problem: reading.reason };
  if (reading.claims.waitlistId !== waitlist.id) return { ...link, problem: "invalid" };
  const signup = getSignup(waitlist.id, reading.claims.signupId);
  if (!signup) return { ...link, problem: "gone" };
  return signup.verified ? { ...link, problem: "already" } : link;
}

/** The button of the confirmation link's page: confirms, then sends the browser to the page that says what happened. */
export async function confirmFromForm(request: Request, pathId: string): Promise<Response> {
  const waitlist = waitlistOfPath(pathId);
  if (!waitlist) return plainTextResponse(404, "Not found: this waitlist does not exist.");
  const refusal = crossSiteRefusal(request.headers);
  if (refusal) return plainTextResponse(403, crossSiteRefusalMessage(refusal));
  const form = await readBoundedForm(request, PUBLIC_FORM_MAX_BYTES);
  if (form === "too_large") return plainTextResponse(413, bodyTooLargeMessage(PUBLIC_FORM_MAX_BYTES));
  const token = form === "invalid" ? undefined : form.get("token");
  const outcome = typeof token === "string" ? await writeWithoutBlocking(() => confirmSignup(waitlist.id, token)) : "invalid";
  return seeOther(`/join/${waitlist.id}/confirmed?outcome=${outcome}`);
}

/** "Send the email again" from the joined page: rate-limited (lib/domain/verification/resend.ts), then back to it saying how it went. */
export async function resendFromForm(request: Request, pathId: string): Promise<Response> {
  const waitlist = waitlistOfPath(pathId);
  if (!waitlist) return plainTextResponse(404, "Not found: this waitlist does not exist.");
  const refusal = crossSiteRefusal(request.headers);
  if (refusal) return plainTextResponse(403, crossSiteRefusalMessage(refusal));
  const form = await readBoundedForm(request, PUBLIC_FORM_MAX_BYTES);
  if (form === "too_large") return plainTextResponse(413, bodyTooLargeMessage(PUBLIC_FORM_MAX_BYTES));
  const token = form === "invalid" ? undefined : form.get("t");
  const reading = typeof token === "string" ? readLinkToken(token, "joined") : undefined;
  if (!reading?.ok || reading.claims.waitlistId !== waitlist.id) return plainTextResponse(400, "Invalid request: this page's link is not valid any more. Join again to get a new one.");
  const outcome = joinSettingsOf(waitlist.id).verification
    ? await writeWithoutBlocking(() => resendConfirmation(waitlist.id, reading.claims.signupId, { emailConfigured: env().SMTP_URL !== undefined }))
    : { sent: false, reason: "gone" as const };
  const said = outcome.sent ? "sent" : outcome.reason;
  return seeOther(`/join/${waitlist.id}/joined?t=${encodeURIComponent(token as string)}&resent=${said}`);
}
