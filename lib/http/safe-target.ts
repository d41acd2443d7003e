import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { canonicalIpAddress } from "./ip-address";

// Where webhooks may connect (GitLab's "allow requests to the local network" is the model): not to
// this host, the private networks, link-local addresses (with the clouds' metadata service at
// 169.254.169.254) or any other address that is not on the public internet, unless
// WEBHOOK_ALLOW_PRIVATE=1. Checked on the addresses a name resolves to when the connection is made
// (safeLookup), not when the URL was saved, so a name that later resolves to 127.0.0.1 (DNS
// rebinding) is refused too; and again on the socket's peer once connected (checkConnectedPeer).

const forbidden = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT, and Alibaba Cloud's metadata at 100.100.100.200
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, and the metadata service of AWS, GCP and Azure
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  forbidden.addSubnet(network, prefix, "ipv4");
}
// IPv6: only global unicast (2000::/3) is reachable. Everything outside it is refused, whatever it
// embeds: the unspecified and loopback addresses, IPv4-compatible (::/96) and IPv4-translated
// (::ffff:0:0:0/96) addresses, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), discard (100::/64), unique local
// (fc00::/7, with AWS's metadata at fd00:ec2::254), link-local and multicast. (::ffff:a.b.c.d, the
// IPv4-mapped form, is checked as the IPv4 address it names: canonicalIpAddress.)
const globalUnicast = new BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");
for (const [network, prefix] of [
  ["2001::", 23], // IETF protocol assignments, with Teredo (2001::/32), which embeds an IPv4 address
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: an IPv4 address in disguise
  ["3fff::", 20], // documentation (RFC 9637)
] as const) {
  forbidden.addSubnet(network, prefix, "ipv6");
}

/** Whether `address` (an IP address in any spelling) is one webhooks must not reach; anything that is not an IP address is refused too. */
export function isForbiddenAddress(address: string): boolean {
  const canonical = canonicalIpAddress(address);
  if (canonical === null) return true;
  if (isIP(canonical) === 4) return forbidden.check(canonical, "ipv4");
  return !globalUnicast.check(canonical, "ipv6") || forbidden.check(canonical, "ipv6");
}

/** The error a refused address gives (the delivery log shows its message). */
export class ForbiddenAddressError extends Error {
  readonly code = "EFORBIDDENADDRESS";
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a loopback, private, link-local or reserved address (set WEBHOOK_ALLOW_PRIVATE=1 to allow it)`);
    this.name = "ForbiddenAddressError";
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request and net.connect that resolves as dns.lookup does, then refuses the
 * connection when any address the name resolves to is forbidden.
 */
export function safeLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "");
    const refused = addresses.find((entry) => isForbiddenAddress(entry.address));
    if (refused) return callback(new ForbiddenAddressError(hostname, refused.address), "");
    if ((options as LookupAllOptions).all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
    callback(null, first.address, first.family);
  });
}

/** Refuses a URL whose host is a forbidden IP address written out (a name is checked when it resolves). */
export function refuseLiteralAddress(url: URL): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) !== 0 && isForbiddenAddress(host)) throw new ForbiddenAddressError(host, host);
}

/** After connecting: the peer the socket reached, checked again (a proxy or a race can not slip past the lookup). */
export function checkConnectedPeer(host: string, remoteAddress: string | undefined): void {
  if (remoteAddress === undefined || isForbiddenAddress(remoteAddress)) throw new ForbiddenAddressError(host, remoteAddress ?? "an unknown address");
}
