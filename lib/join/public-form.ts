import "server-only";
import { isWaitlistId } from "@/lib/domain/waitlists/id";
import { getWaitlist } from "@/lib/domain/waitlists/queries";
import { bodyTooLargeMessage, PUBLIC_FORM_MAX_BYTES, readBoundedForm } from "@/lib/http/body-limit";
import { plainTextResponse } from "@/lib/http/form-answers";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";

// What every public page of a waitlist's join form starts with: the waitlist of its path, and for
// its forms' POSTs the checks before the body is used.

export type JoinPageWaitlist = NonNullable<Awaited<ReturnType<typeof getWaitlist>>>;

/** The waitlist of a join page's path (`/join/{id}/…`), or undefined (a malformed or unknown id). */
export async function waitlistOfPath(pathId: string): Promise<JoinPageWaitlist | undefined> {
  return isWaitlistId(pathId) ? await getWaitlist(pathId.toLowerCase()) : undefined;
}

/**
 * A public form's POST to a waitlist's join pages, checked in this order: an unknown waitlist (404),
 * a cross-site request (403; the production server refuses it before Next.js, lib/server/refuse.ts:
 * this covers `next dev`), a body past PUBLIC_FORM_MAX_BYTES (413). Returns the refusal, or the
 * waitlist and the form ("invalid" when the body is not a form).
 */
export async function readPublicForm(request: Request, pathId: string): Promise<Response | { waitlist: JoinPageWaitlist; form: FormData | "invalid" }> {
  const waitlist = await waitlistOfPath(pathId);
  if (!waitlist) return plainTextResponse(404, "Not found: this waitlist does not exist.");
  const refusal = crossSiteRefusal(request.headers);
  if (refusal) return plainTextResponse(403, crossSiteRefusalMessage(refusal));
  const form = await readBoundedForm(request, PUBLIC_FORM_MAX_BYTES);
  if (form === "too_large") return plainTextResponse(413, bodyTooLargeMessage(PUBLIC_FORM_MAX_BYTES));
  return { waitlist, form };
}
