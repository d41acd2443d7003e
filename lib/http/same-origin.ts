import { env } from "@/lib/core/env";
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
