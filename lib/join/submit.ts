import "server-only";
import { joinWaitlistWithoutBlocking } from "@/lib/domain/joining/join";
import { JoinRefused } from "@/lib/domain/joining/join-input";
import { joinSettingsOf } from "@/lib/domain/joining/settings";
import { solvesChallenge } from "@/lib/domain/verification/challenge";
import { currentClientLimiterKey } from "@/lib/http/client-address";
import { plainTextResponse, seeOther } from "@/lib/http/form-answers";
import { fieldName, HONEYPOT_FIELD, type JoinError } from "./form-fields";
import { joinedSetCookie } from "./joined-cookie";
import { readPublicForm } from "./public-form";
import { lenientSource, SOURCE_FIELDS } from "@/lib/domain/funnel/source";

// The hosted join form's POST (/join/{id}/submit): a plain HTML form, so it works without JavaScript;
// every answer is a 303 to a page, the form again with `?error=` or /join/{id}/joined. That one answer
// is the same for a new address and one already on the list (issue 29): same Location, same cookie
// name, path and length; the cookie's sealed value tells only the server which (./joined-cookie.ts).
// The settings read here decide what comes before the join (the challenge, the fields' labels) and the
// cookie after it; the join reads them again in its own transaction, where "is it open" is race-free.

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** Handles the join form's POST for the waitlist of the path. */
export async function joinFromForm(request: Request, pathId: string): Promise<Response> {
  const checked = await readPublicForm(request, pathId);
  if (checked instanceof Response) return checked;
  const { waitlist, form } = checked;
  if (form === "invalid") return plainTextResponse(400, "Invalid request: expected the join form.");
  const ref = text(form, "ref").slice(0, 64);
  const source = lenientSource(Object.fromEntries(SOURCE_FIELDS.map((field) => [field, text(form, field)])));
  // The way back keeps the link's ref and utm_* (the referring site is lost: the Referer is then this page).
  const kept = new URLSearchParams([...(ref ? [["ref", ref]] : []), ...SOURCE_FIELDS.filter((field) => field !== "referrer" && source[field]).map((field) => [field, source[field]!])]);
  const back = (error: JoinError) => seeOther(`/join/${waitlist.id}?error=${error}${kept.size > 0 ? `&${kept}` : ""}`);
  if (text(form, HONEYPOT_FIELD) !== "") return back("refused");
  const settings = await joinSettingsOf(waitlist.id);
  if (settings.joining === "closed") return back("closed");
  if (settings.challenge && !(await solvesChallenge(text(form, "altcha"), waitlist.id))) return back("challenge");
  const customInputs = settings.fields.map((field, index) => ({ label: field.label, value: text(form, fieldName(index)) })).filter((input) => input.value !== "");
  try {
    const reply = await joinWaitlistWithoutBlocking({ waitlistId: waitlist.id, email: text(form, "email"), customInputs, referralCode: ref || undefined, source, clientAddress: currentClientLimiterKey(request.headers) });
    const answer = seeOther(`/join/${waitlist.id}/joined`);
    answer.headers.set("set-cookie", await joinedSetCookie(waitlist.id, reply.created ? { signupId: reply.signup.id } : { existing: true }, settings.embedOrigins.length > 0));
    return answer;
  } catch (error) {
    if (error instanceof JoinRefused) return back(error.reason === "not_found" ? "closed" : error.reason);
    throw error;
  }
}
