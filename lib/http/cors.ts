// Cross-origin access to /v1 (the Fetch standard's CORS protocol). Off unless CORS_ORIGINS names
// origins (or `*`); never with credentials: browsers send no cookies and the API reads none, a
// browser app sends its key in Authorization or X-API-Key like any other client.

import type { CorsPolicy } from "@/lib/core/env";

/** Response headers a browser app may read besides the safelisted ones. */
export const CORS_EXPOSED_HEADERS = "Link, Request-Id, RateLimit, RateLimit-Policy, Retry-After, ETag";
export const CORS_ALLOWED_METHODS = "GET, HEAD";
/** Request headers a browser app may send: the two ways of sending a key, and a conditional request. */
export const CORS_ALLOWED_HEADERS = "Authorization, X-API-Key, If-None-Match";
/** How long a browser may reuse a preflight answer (Chromium caps it at 2 hours). */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * The CORS headers of a response to a request from `origin` (its Origin header). `anyOrigin` is for
 * public resources (openapi.json), readable from everywhere whatever the policy. With a list of
 * origins the answer depends on Origin, so `Vary: Origin` is part of it even when the origin is refused.
 */
export function corsHeaders(policy: CorsPolicy, origin: string | null | undefined, options: { anyOrigin?: boolean } = {}): Record<string, string> {
  const allowAny = options.anyOrigin || policy === "*";
  if (allowAny) return { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS };
  if (!policy) return {};
  if (!origin || !policy.includes(origin)) return { Vary: "Origin" };
  return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS, Vary: "Origin" };
}

/** A preflight is an OPTIONS request carrying Origin and Access-Control-Request-Method. */
export function isPreflight(method: string, headers: Pick<Headers, "get">): boolean {
  return method === "OPTIONS" && headers.get("origin") !== null && headers.get("access-control-request-method") !== null;
}

/** The headers of the answer to a preflight: the response headers, plus what may be sent, when the origin is allowed. */
export function preflightHeaders(policy: CorsPolicy, origin: string | null, options: { anyOrigin?: boolean } = {}): Record<string, string> {
  const headers = corsHeaders(policy, origin, options);
  if (!headers["Access-Control-Allow-Origin"]) return headers;
  const { "Access-Control-Expose-Headers": _exposed, ...allowed } = headers;
  return {
    ...allowed,
    "Access-Control-Allow-Methods": CORS_ALLOWED_METHODS,
    "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
    "Access-Control-Max-Age": String(CORS_MAX_AGE_SECONDS),
  };
}
