// Kept free of database imports so that proxy.ts can use it.

/** The cookie that carries the dashboard session token. */
export const SESSION_COOKIE = "wl_session";
/** Sessions last 12 hours from sign-in (absolute, not sliding): a day's work, then sign in again. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** Request header in which proxy.ts hands the requested path and query to the pages. */
export const REQUEST_PATH_HEADER = "x-dashboard-path";

/** Files anyone may fetch: public/robots.txt and the app icon (shown on the sign-in page too). */
const PUBLIC_FILES = new Set(["/favicon.ico", "/icon.svg", "/robots.txt"]);

/** Paths that need no session: the API, its docs, the sign-in page, Next's own assets and PUBLIC_FILES. */
export function isPublicPath(pathname: string): boolean {
  return /^\/(v1|docs|signin)(\/|$)/.test(pathname) || pathname.startsWith("/_next/") || PUBLIC_FILES.has(pathname);
}

/** HttpOnly, SameSite=Lax, Secure over HTTPS, and an expiry equal to the session's. */
export function sessionCookieOptions(expiresAt: Date, secure: boolean) {
  return { httpOnly: true, sameSite: "lax" as const, secure, path: "/", expires: expiresAt };
}
