import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { isHttpsRequest, requestOrigin as originOf } from "@/lib/http/origin";
import { setRequestKeyId } from "@/lib/http/request-context";
import { signInHref } from "./return-path";
import { REQUEST_PATH_HEADER, sessionCookieName } from "./session-cookie";
import { ADMIN_ROLE, rolesGrant } from "@/lib/domain/keys/queries";
import { lookupSession, type DashboardSession, type SessionLookup } from "@/lib/domain/sessions";

/** The session of the current request (from the cookie name that applies to it), looked up once per render. */
const lookupCurrentSession = cache(async (): Promise<SessionLookup> => {
  const token = (await cookies()).get(sessionCookieName(await isSecureRequest()))?.value;
  return lookupSession(token);
});

export async function getCurrentSession(): Promise<DashboardSession | null> {
  const lookup = await lookupCurrentSession();
  return lookup.ok ? lookup.session : null;
}

/**
 * Every dashboard page, layout and route calls this first: without a valid session it redirects
 * to the sign-in page, which later returns to the requested path (handed over by proxy.ts) and
 * says why when the session existed but ended (key revoked or expired, session expired).
 */
export async function requireSession(): Promise<DashboardSession> {
  const lookup = await lookupCurrentSession();
  if (lookup.ok) {
    // The request log names the key behind the session (never the token).
    setRequestKeyId(lookup.session.key.id);
    return lookup.session;
  }
  redirect(signInHref((await headers()).get(REQUEST_PATH_HEADER) ?? "/", lookup.reason));
}

/** Whether the browser reached us over HTTPS (through a trusted proxy that says so). */
export async function isSecureRequest(): Promise<boolean> {
  return isHttpsRequest(await headers());
}

/** The origin the browser used, for absolute URLs shown to the user. */
export async function requestOrigin(): Promise<string> {
  return originOf(await headers());
}

/** Whether the session's key may write (waitlist:admin): pages show write controls only then. */
export function sessionIsAdmin(session: DashboardSession): boolean {
  return rolesGrant(session.key.roles, ADMIN_ROLE);
}

/** requireSession() for admin-only pages: a view session gets the not-found page, as if they were not there. */
export async function requireAdminSession(): Promise<DashboardSession> {
  const session = await requireSession();
  if (!sessionIsAdmin(session)) notFound();
  return session;
}
