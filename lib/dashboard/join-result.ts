import "server-only";
import { env } from "@/lib/core/env";
import { joinedSignup, type JoinedSignup } from "@/lib/domain/joining/join";
import { joinSettingsOf, type JoinSettings } from "@/lib/domain/joining/settings";
import { getSignup } from "@/lib/domain/signups/queries";
import { confirmSignup, type ConfirmOutcome } from "@/lib/domain/verification/confirm";
import { joinedPageToken } from "@/lib/domain/verification/email";
import { readLinkToken } from "@/lib/domain/verification/link-token";
import { resendConfirmation } from "@/lib/domain/verification/resend";
import { isWaitlistId } from "@/lib/domain/waitlists/id";
import { getWaitlist } from "@/lib/domain/waitlists/queries";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { bodyTooLargeMessage, PUBLIC_FORM_MAX_BYTES, readBoundedForm } from "@/lib/http/body-limit";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";
import { plainTextResponse, seeOther } from "./admin-post";
import { joinedCookieOf } from "./joined-cookie";

// The join page after the form (/join/{id}/joined, by the form's cookie or an emailed link's signed
// token), the confirmation link of the email, and "send the email again" (from an emailed link only).

const waitlistOfPath = (pathId: string) => (isWaitlistId(pathId) ? getWaitlist(pathId.toLowerCase()) : undefined);

type JoinedWaitlist = { waitlist: NonNullable<ReturnType<typeof getWaitlist>>; settings: JoinSettings };

/**
 * What /join/{id}/joined shows (issue 29: a person's place, link and status reach only that person):
 * - `own`: the signup's page, to whoever holds an emailed link (`token`: "send the email again" too),
 *   or to the browser that has just created it on a list that does not verify addresses;
 * - `check_inbox`: after the form on a list that verifies addresses, for a new address and one
 *   already on the list alike (each was emailed: the confirmation, or a link to its page);
 * - `already_on_list`: after the form, an address the list already had (verification off): `emailed`
 *   says whether the server sends email (a link to its page went to the address), else "check with the list's owner";
 * - `nothing`: no (valid) cookie and no link, or the signup is gone.
 */
export type JoinedView = JoinedWaitlist &
  ({ kind: "own"; signup: JoinedSignup; token?: string } | { kind: "check_inbox" } | { kind: "already_on_list"; emailed: boolean } | { kind: "nothing" });

/** The view of /join/{id}/joined from its `t` and the form's cookie; undefined for an unknown waitlist or a link that does not work (forged, expired, another list's, erased). */
export function joinedViewOf(pathId: string, token: string | undefined, cookie: string | undefined): JoinedView | undefined {
  const waitlist = waitlistOfPath(pathId);
  if (!waitlist) return undefined;
  const base = { waitlist, settings: joinSettingsOf(waitlist.id) };
  if (token !== undefined) {
    const reading = readLinkToken(token, "joined");
    const signup = reading.ok && reading.claims.waitlistId === waitlist.id ? joinedSignup(waitlist.id, reading.claims.signupId) : undefined;
    return signup && { ...base, kind: "own", signup, token };
  }
  const seal = joinedCookieOf(waitlist.id, cookie);
  if (!seal) return { ...base, kind: "nothing" };
  if (base.settings.verification) return { ...base, kind: "check_inbox" };
  if ("existing" in seal) return { ...base, kind: "already_on_list", emailed: env().SMTP_URL !== undefined };
  const signup = joinedSignup(waitlist.id, seal.signupId);
  return signup ? { ...base, kind: "own", signup } : { ...base, kind: "nothing" };
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
  // Whoever holds a confirmation link is the address's owner: the outcome page links to their own page.
  const reading = typeof token === "string" && (outcome === "confirmed" || outcome === "already") ? readLinkToken(token, "confirm") : undefined;
  const page = reading?.ok ? `&t=${encodeURIComponent(joinedPageToken(waitlist.id, reading.claims.signupId))}` : "";
  return seeOther(`/join/${waitlist.id}/confirmed?outcome=${outcome}${page}`);
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
