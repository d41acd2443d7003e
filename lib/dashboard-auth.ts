import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { setRequestKeyId } from "./request-context";
import { signInHref } from "./return-path";
import { REQUEST_PATH_HEADER, SESSION_COOKIE } from "./session-cookie";
import { getSessionFromToken, type DashboardSession } from "./sessions";

/** The session of the current request, looked up once per render. */
export const getCurrentSession = cache(async (): Promise<DashboardSession | null> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return getSessionFromToken(token);
});

/**
 * Every dashboard page, layout and route calls this first: without a valid session it redirects
 * to the sign-in page, which later returns to the requested path (handed over by proxy.ts).
 */
export async function requireSession(): Promise<DashboardSession> {
  const session = await getCurrentSession();
  if (session) {
    // The request log names the key behind the session (never the token).
    setRequestKeyId(session.key.id);
    return session;
  }
  redirect(signInHref((await headers()).get(REQUEST_PATH_HEADER) ?? "/"));
}

/** Whether the browser reached us over HTTPS (directly or through a proxy that says so). */
export async function isSecureRequest(): Promise<boolean> {
  return (await headers()).get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

/** The origin the browser used, for absolute URLs shown to the user. */
export async function requestOrigin(): Promise<string> {
  const list = await headers();
  const host = list.get("x-forwarded-host")?.split(",")[0]?.trim() || list.get("host") || "localhost";
  return `${(await isSecureRequest()) ? "https" : "http"}://${host}`;
}
