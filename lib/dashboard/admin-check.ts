import "server-only";
import type { DashboardSession } from "@/lib/domain/sessions";
import { lookupSession } from "@/lib/domain/sessions";
import { setRequestKeyId } from "@/lib/http/request-context";
import { crossSiteRefusal, crossSiteRefusalMessage } from "@/lib/http/same-origin";
import { sessionIsAdmin } from "./auth";
import { signInHref } from "./return-path";
import { sessionTokenOf } from "./session-cookie";
import type { WriteRefusal } from "./write-refusal";

/**
 * The checks every dashboard write starts with (a route's, ./admin-post.ts, and a server action's,
 * ./admin-action.ts), in this order: refuses a cross-site request (403, crossSiteRefusal; the
 * production server refuses it before Next.js, lib/server/refuse.ts: this covers `next dev`); without
 * a valid session, where to sign in (coming back to `returnPath`); refuses a key without
 * waitlist:admin (403). Returns the refusal, the sign-in page, or the admin session.
 */
export async function checkAdminWrite(headers: Headers, returnPath: () => string): Promise<{ refused: WriteRefusal } | { signIn: string } | { session: DashboardSession }> {
  const refusal = crossSiteRefusal(headers);
  if (refusal) return { refused: { status: 403, message: crossSiteRefusalMessage(refusal) } };
  const lookup = await lookupSession(sessionTokenOf(headers));
  if (!lookup.ok) return { signIn: signInHref(returnPath(), lookup.reason) };
  const { session } = lookup;
  // The request log names the key behind the session (never the token).
  setRequestKeyId(session.key.id);
  if (!sessionIsAdmin(session)) {
    return { refused: { status: 403, message: `Refused: the key of this session (${session.key.name}) does not carry the waitlist:admin role, which this action needs.` } };
  }
  return { session };
}
