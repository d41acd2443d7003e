import "server-only";
import { getSignup } from "@/lib/domain/signups/queries";
import { confirmSignup, type ConfirmOutcome } from "@/lib/domain/verification/confirm";
import { joinedPageToken, personPageToken } from "@/lib/domain/verification/email";
import { readLinkToken } from "@/lib/domain/verification/link-token";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { seeOther } from "@/lib/http/form-answers";
import { readPublicForm, waitlistOfPath } from "./public-form";

// The confirmation link of the email (/join/{id}/confirm): its page, and the button that confirms.

/** The confirmation link's page: the waitlist and the token for its button, or why the link cannot confirm; undefined for an unknown waitlist. */
export async function confirmLinkOf(pathId: string, token: string): Promise<{ waitlistId: string; waitlistName: string; token: string; problem?: Exclude<ConfirmOutcome, "confirmed"> } | undefined> {
  const waitlist = await waitlistOfPath(pathId);
  if (!waitlist) return undefined;
  const link = { waitlistId: waitlist.id, waitlistName: waitlist.name, token };
  const reading = await readLinkToken(token, "confirm");
  if (!reading.ok) return { ...link, problem: reading.reason };
  if (reading.claims.waitlistId !== waitlist.id) return { ...link, problem: "invalid" };
  const signup = await getSignup(waitlist.id, reading.claims.signupId);
  if (!signup) return { ...link, problem: "gone" };
  return signup.verified ? { ...link, problem: "already" } : link;
}

/** The button of the confirmation link's page: confirms, then sends the browser to the page that says what happened. */
export async function confirmFromForm(request: Request, pathId: string): Promise<Response> {
  const checked = await readPublicForm(request, pathId);
  if (checked instanceof Response) return checked;
  const { waitlist, form } = checked;
  const token = form === "invalid" ? undefined : form.get("token");
  const outcome = typeof token === "string" ? await writeWithoutBlocking(async () => await confirmSignup(waitlist.id, token)) : "invalid";
  // Whoever holds a confirmation link is the address's owner: the outcome page links to their pages (`t` the joined page, `p` their own page).
  const reading = typeof token === "string" && (outcome === "confirmed" || outcome === "already") ? await readLinkToken(token, "confirm") : undefined;
  const page = reading?.ok ? `&t=${encodeURIComponent(await joinedPageToken(waitlist.id, reading.claims.signupId))}&p=${encodeURIComponent(await personPageToken(waitlist.id, reading.claims.signupId))}` : "";
  return seeOther(`/join/${waitlist.id}/confirmed?outcome=${outcome}${page}`);
}
