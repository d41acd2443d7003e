import { env, type CorsPolicy } from "@/lib/core/env";
import type { HeaderReader } from "./incoming";
import { requestOrigin } from "./origin";

/**
 * Why a write request is refused as cross-site, or undefined when it comes from our own pages.
 * Browsers send `Origin` with every POST: it must be the origin requestOrigin computes for this
 * request. Without it, `Sec-Fetch-Site` must say `same-origin`; a request with neither (no
 * browser sends that) is refused too, as is `Origin: null` (sandboxed frames, some redirects).
 */
export function crossSiteRefusal(headers: HeaderReader, trustedProxyHops = env().TRUSTED_PROXY_HOPS): string | undefined {
  const origin = headers.get("origin");
  const expected = requestOrigin(headers, trustedProxyHops);
  if (origin !== null) return origin === expected ? undefined : `the request comes from ${origin}, not from ${expected}`;
  const site = headers.get("sec-fetch-site");
  return site === "same-origin" ? undefined : "the request has no Origin header and is not same-origin";
}

/** What a refused cross-site write is told (in plain text: it is a dashboard write). */
export function crossSiteRefusalMessage(refusal: string): string {
  return `Refused: ${refusal}. Dashboard writes are accepted only from the dashboard's own pages.`;
}

/**
 * Why a /v1 write is refused as cross-site, or undefined. Backends send no Origin and pass; a
 * browser page sends its own, which must be this site's or one CORS_ORIGINS lets in.
 */
export function crossOriginApiRefusal(headers: HeaderReader, policy: CorsPolicy, trustedProxyHops = env().TRUSTED_PROXY_HOPS): string | undefined {
  const origin = headers.get("origin");
  if (origin === null) return headers.get("sec-fetch-site") === "cross-site" ? "the request comes from another site" : undefined;
  if (origin === requestOrigin(headers, trustedProxyHops) || policy === "*" || (policy?.includes(origin) ?? false)) return undefined;
  return `the request comes from ${origin}, not from ${requestOrigin(headers, trustedProxyHops)}`;
}
