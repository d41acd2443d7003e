import { requestContext } from "@/lib/request-context";

/**
 * The client's address. With no trusted proxy (`hops` 0) it is the connection's peer: a client
 * can write anything into X-Forwarded-For, so the header is ignored. Behind `hops` reverse proxies
 * that each append the address they saw, it is the entry `hops` places from the end of the list
 * completed with the peer, the last one a client cannot forge.
 */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string {
  const chain = hops > 0 ? [forwardedFor ?? []].flat().join(",").split(",").map((entry) => entry.trim()).filter(Boolean) : [];
  chain.push(peer || "unknown");
  return chain[Math.max(0, chain.length - 1 - hops)]!;
}

/**
 * The current request's client address: the one the production server resolved. Under `next dev`
 * or a bare `next start` there is no server context, and the last X-Forwarded-For entry (which
 * Next.js fills with the peer when absent) is the best guess.
 */
export function currentClientAddress(headers: Headers): string {
  return requestContext()?.clientAddress ?? (headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || "unknown");
}
