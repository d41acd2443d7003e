import "server-only";
import { env } from "@/lib/core/env";
import { emailPersonLink } from "@/lib/domain/people/link-email";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { currentClientLimiterKey } from "@/lib/http/client-address";
import { plainTextResponse, seeOther } from "@/lib/http/form-answers";
import { readPublicForm } from "./public-form";

// "Already joined? Get your link" (the join page's small form, POST /join/{id}/link): the same
// answer for every address, on the list or not, emailed or not (lib/domain/people/link-email.ts);
// only the asking client's own limit is said.

/** What the join page says after the form (`?link=`). */
export const LINK_REQUEST_ANSWERS = {
  sent: "If this address is on the list, we've emailed it a link to its page. It can take a few minutes: check your spam folder too.",
  busy: "Too many requests from your network just now: please try again later.",
} as const;
export type LinkRequestAnswer = keyof typeof LINK_REQUEST_ANSWERS;

export function isLinkRequestAnswer(value: unknown): value is LinkRequestAnswer {
  return typeof value === "string" && Object.hasOwn(LINK_REQUEST_ANSWERS, value);
}

export async function linkRequestFromForm(request: Request, pathId: string): Promise<Response> {
  const checked = await readPublicForm(request, pathId);
  if (checked instanceof Response) return checked;
  const { waitlist, form } = checked;
  const email = form === "invalid" ? undefined : form.get("email");
  if (typeof email !== "string") return plainTextResponse(400, "Invalid request: expected the form asking for your link.");
  const outcome = await writeWithoutBlocking(async () =>
    await emailPersonLink(waitlist.id, email.slice(0, 1000), { emailConfigured: env().SMTP_URL !== undefined, publicUrl: env().PUBLIC_URL, clientAddress: currentClientLimiterKey(request.headers) }),
  );
  const answer: LinkRequestAnswer = outcome === "client_limited" ? "busy" : "sent";
  return seeOther(`/join/${waitlist.id}?link=${answer}#get-link`);
}
