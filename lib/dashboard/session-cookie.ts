// Kept free of database imports so that proxy.ts can use it.
import { isApiPath } from "@/lib/http/api-path";
import { isHttpsRequest } from "@/lib/http/origin";
import { SESSION_COOKIE_GRACE_MS } from "@/lib/domain/session-lifetime";

/** The cookie that carries the dashboard session token over plain HTTP (localhost, a private network). */
export const SESSION_COOKIE = "wl_session";
/**
 * Its name over HTTPS. Browsers accept a `__Host-` cookie only with Secure, Path=/ and no Domain, so
 * neither a plain-HTTP page (a network attacker) nor a sibling subdomain can plant or replace it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/** Request header in which proxy.ts hands the requested path and query to the pages. */
export const REQUEST_PATH_HEADER = "x-dashboard-path";

/** Files anyone may fetch: public/robots.txt and the app icon (shown on the sign-in page too). */
const PUBLIC_FILES = new Set(["/favicon.ico", "/icon.svg", "/robots.txt"]);

/** Paths that need no session: the API, its docs, the sign-in page, the join pages, Next's own assets and PUBLIC_FILES. */
export function isPublicPath(pathname: string): boolean {
  return isApiPath(pathname) || /^\/(docs|signin|join)(\/|$)/.test(pathname) || pathname.startsWith("/_next/") || PUBLIC_FILES.has(pathname);
}

/** The session cookie's name: `__Host-` prefixed over HTTPS (isHttpsRequest, lib/http/origin.ts), the plain one otherwise. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS, no Domain, and a day longer than the session. */
export function sessionCookieOptions(sessionExpiresAt: Date, secure: boolean) {
  return { httpOnly: true, sameSite: "lax" as const, secure, path: "/", expires: new Date(sessionExpiresAt.getTime() + SESSION_COOKIE_GRACE_MS) };
}

/**
 * The session token in a request's Cookie header (the cookie name that applies to the request), as
 * cookies() would read it, for handlers that work on the Request itself (lib/dashboard/admin-post.ts).
 */
export function sessionTokenOf(headers: Headers): string | undefined {
  const name = sessionCookieName(isHttpsRequest(headers));
  for (const pair of (headers.get("cookie") ?? "").split(";")) {
    const separator = pair.indexOf("=");
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}
