import "server-only";
import { JoinRefused, joinWaitlistWithoutBlocking } from "@/lib/domain/joining/join";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { solvesChallenge } from "@/lib/domain/verification/challenge";
import { isWaitlistId } from "@/lib/domain/waitlists/id";
import { getWaitlist } from "@/lib/domain/waitlists/queries";
import { currentClientLimiterKey } from "@/lib/http/client-address";
import { bodyTooLargeMessage, PUBLIC_FORM_MAX_BYTES, readBoundedForm } from "@/lib/http/body-limit";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";
import { plainTextResponse, seeOther } from "./admin-post";
import { joinedSetCookie } from "./joined-cookie";

// The hosted join form's POST (/join/{id}/submit): a plain HTML form, so it works without JavaScript;
// every answer is a 303 to a page, the form again with `?error=` or /join/{id}/joined. That one answer
// is the same for a new address and one already on the list (issue 29): same Location, same cookie
// name, path and length; the cookie's sealed value tells only the server which (./joined-cookie.ts).

/** The honeypot: a field people never see (the form hides it), which only a bot fills in. */
export const HONEYPOT_FIELD = "website_url";

/** The form field of the join settings' field at `index`. */
export const fieldName = (index: number) => `field_${index}`;

/** What the form says after a refusal (`?error=`), naming nothing about other signups. */
export const JOIN_ERRORS = {
  closed: "This waitlist is not taking new signups right now.",
  invalid_email: "Please enter a valid email address.",
  invalid_inputs: "Please fill in the fields as asked.",
  rate_limited: "Too many signups just now from this address, from your network or for this list: please try again later.",
  challenge: "The anti-spam check did not complete: please wait for it to finish, then join again.",
  refused: "Your signup could not be accepted.",
} as const;
export type JoinError = keyof typeof JOIN_ERRORS;

export function isJoinError(value: unknown): value is JoinError {
  return typeof value === "string" && Object.hasOwn(JOIN_ERRORS, value);
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** Handles the join form's POST for the waitlist of the path. */
export async function joinFromForm(request: Request, pathId: string): Promise<Response> {
  const waitlist = isWaitlistId(pathId) ? getWaitlist(pathId.toLowerCase()) : undefined;
  if (!waitlist) return plainTextResponse(404, "Not found: this waitlist does not exist.");
  // The production server refuses it before Next.js (lib/server/refuse.ts); this covers `next dev`.
  const refusal = crossSiteRefusal(request.headers);
  if (refusal) return plainTextResponse(403, crossSiteRefusalMessage(refusal));
  const form = await readBoundedForm(request, PUBLIC_FORM_MAX_BYTES);
  if (form === "too_large") return plainTextResponse(413, bodyTooLargeMessage(PUBLIC_FORM_MAX_BYTES));
  if (form === "invalid") return plainTextResponse(400, "Invalid request: expected the join form.");
  const ref = text(form, "ref").slice(0, 64);
  const back = (error: JoinError) => seeOther(`/join/${waitlist.id}?error=${error}${ref ? `&ref=${encodeURIComponent(ref)}` : ""}`);
  if (text(form, HONEYPOT_FIELD) !== "") return back("refused");
  const settings = joinSettingsOf(waitlist.id);
  if (settings.joining === "closed") return back("closed");
  if (settings.challenge && !(await solvesChallenge(text(form, "altcha"), waitlist.id))) return back("challenge");
  const customInputs = settings.fields.map((field, index) => ({ label: field.label, value: text(form, fieldName(index)) })).filter((input) => input.value !== "");
  try {
    const reply = await joinWaitlistWithoutBlocking({ waitlistId: waitlist.id, email: text(form, "email"), customInputs, referralCode: ref || undefined, clientAddress: currentClientLimiterKey(request.headers) });
    const answer = seeOther(`/join/${waitlist.id}/joined`);
    answer.headers.set("set-cookie", joinedSetCookie(waitlist.id, reply.created ? { signupId: reply.signup.id } : { existing: true }, settings.embedOrigins.length > 0));
    return answer;
  } catch (error) {
    if (error instanceof JoinRefused) return back(error.reason === "not_found" ? "closed" : error.reason);
    throw error;
  }
}
