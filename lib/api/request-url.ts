/**
 * The URL the client used. Next.js rebuilds `request.url` from its own host name, so the origin
 * comes from the headers: `X-Forwarded-Proto`/`X-Forwarded-Host` when a proxy sets them (Next.js
 * sets them itself from the connection otherwise), then `Host`.
 */
export function publicRequestUrl(request: Request): URL {
  const url = new URL(request.url);
  const first = (name: string) => request.headers.get(name)?.split(",")[0]?.trim() || undefined;
  const proto = first("x-forwarded-proto");
  const host = first("x-forwarded-host") ?? first("host");
  const protocol = proto === "http" || proto === "https" ? `${proto}:` : url.protocol;
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return url;
  try {
    return new URL(`${url.pathname}${url.search}`, `${protocol}//${host}`);
  } catch {
    // Characters that pass the filter but no valid host (an IPv4 number out of range, "[x]").
    return url;
  }
}
