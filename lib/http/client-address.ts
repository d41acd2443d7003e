import { addressLimiterKey, canonicalIpAddress } from "@/lib/http/ip-address";
import { requestContext } from "@/lib/http/request-context";
import type { HeaderReader } from "./incoming";

const peerAddresses = new WeakMap<object, string>();

/**
 * A connection's peer address in canonical form (`::ffff:127.0.0.1` → `127.0.0.1`), worked out
 * once per connection: a keep-alive connection carries many requests.
 */
export function peerAddress(socket: { remoteAddress?: string }): string | undefined {
  let address = peerAddresses.get(socket);
  if (address === undefined && socket.remoteAddress) {
    address = canonicalIpAddress(socket.remoteAddress) ?? socket.remoteAddress;
    peerAddresses.set(socket, address);
  }
  return address;
}

/**
 * The client's address. With no trusted proxy (`hops` 0) it is the connection's peer: a client
 * can write anything into X-Forwarded-For, so the header is ignored. Behind `hops` reverse proxies
 * that each append the address they saw, it is the entry `hops` places from the end of the list
 * completed with the peer, the last one a client cannot forge. That entry must be an IP address
 * (see canonicalIpAddress); when it is not, the proxy did not write it (a client reached the port
 * directly and sent its own header, or the proxy is misconfigured), and the peer is the answer: the
 * direct client itself, or else the proxy, so that garbage never becomes a fresh address to limit.
 */
export function resolveClientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string {
  const peerAddress = peer ? (canonicalIpAddress(peer) ?? peer) : "unknown";
  if (hops <= 0) return peerAddress;
  const entries = [forwardedFor ?? []].flat().join(",").split(",").map((entry) => entry.trim()).filter(Boolean);
  // Fewer entries than hops: the first one there is (the outermost proxy on this path added it).
  const entry = entries[Math.max(0, entries.length - hops)];
  return (entry !== undefined && canonicalIpAddress(entry)) || peerAddress;
}

/**
 * The current request's client address: the one the production server resolved. Under `next dev`
 * or a bare `next start` there is no server context, and the last X-Forwarded-For entry (which
 * Next.js fills with the peer when absent) is the best guess.
 */
export function currentClientAddress(headers: HeaderReader): string {
  const context = requestContext();
  if (context) return context.clientAddress;
  return canonicalIpAddress(headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() ?? "") ?? "unknown";
}

/** The key the current client's failures are counted under (IPv6 by /64, see addressLimiterKey). */
export function currentClientLimiterKey(headers: HeaderReader): string {
  return addressLimiterKey(currentClientAddress(headers));
}
