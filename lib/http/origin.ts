import { env } from "@/lib/core/env";
import type { HeaderReader } from "./incoming";

// The one rule for the origin the client used (README, `TRUSTED_PROXY_HOPS`). The production
// server speaks plain HTTP and believes X-Forwarded-* headers only from a trusted reverse proxy
// (TRUSTED_PROXY_HOPS ≥ 1), as it does X-Forwarded-For: without one they are whatever the client
// sent. A host that is not a plain host name, IP address or port is ignored.

const HOST_CHARACTERS = /^[A-Za-z0-9.:[\]-]+$/;

const firstValue = (headers: HeaderReader, name: string) => headers.get(name)?.split(",")[0]?.trim() || undefined;

/** Whether the browser reached us over HTTPS: a trusted proxy says so in X-Forwarded-Proto. */
export function isHttpsRequest(headers: HeaderReader, trustedProxyHops = env().TRUSTED_PROXY_HOPS): boolean {
  return trustedProxyHops > 0 && firstValue(headers, "x-forwarded-proto") === "https";
}

/**
 * The origin the client sent the request to, for absolute URLs (the /v1 `Link` header, the
 * dashboard's API URL, the docs' curl examples): `https` when isHttpsRequest, else `http`; the host
 * of X-Forwarded-Host from a trusted proxy, else of Host, else `localhost`.
 */
export function requestOrigin(headers: HeaderReader, trustedProxyHops = env().TRUSTED_PROXY_HOPS): string {
  const protocol = isHttpsRequest(headers, trustedProxyHops) ? "https:" : "http:";
  const host = (trustedProxyHops > 0 && firstValue(headers, "x-forwarded-host")) || firstValue(headers, "host");
  if (host && HOST_CHARACTERS.test(host)) {
    try {
      return new URL(`${protocol}//${host}`).origin;
    } catch {
      // Characters that pass the filter but no valid host (an IPv4 number out of range, "[x]").
    }
  }
  return `${protocol}//localhost`;
}
