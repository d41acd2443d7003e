import { isIP } from "node:net";

// The longest IP address in text: IPv6 with an IPv4 tail, "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255".
const MAX_ADDRESS_LENGTH = 45;

/**
 * `text` as an IP address in one spelling per address, or null when it is anything else (a port,
 * brackets, a zone such as `fe80::1%eth0`, whitespace, a host name). IPv4 is kept as it is (Node
 * accepts only the dotted decimal form without leading zeros); IPv6 is written as RFC 5952 says
 * (lower case, no leading zeros, the longest run of zero groups as `::`); an IPv4-mapped IPv6
 * address (`::ffff:192.0.2.1`, how a dual-stack socket names an IPv4 peer) becomes its IPv4 address.
 */
export function canonicalIpAddress(text: string): string | null {
  if (text.length > MAX_ADDRESS_LENGTH) return null;
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6 || text.includes("%")) return null;
  const groups = ipv6Groups(text);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return formatIpv6(groups);
}

/**
 * The key under which a client address is rate-limited: an IPv4 address itself, an IPv6 address
 * its /64 network (`2001:db8:1:2::/64`), because a single host or customer usually holds a whole
 * /64 and could otherwise use a fresh address for every attempt. Anything that is not an IP address
 * (the server's "unknown") is its own key.
 */
export function addressLimiterKey(address: string): string {
  const canonical = canonicalIpAddress(address);
  if (canonical === null) return address;
  if (isIP(canonical) === 4) return canonical;
  const network = [...ipv6Groups(canonical).slice(0, 4), 0, 0, 0, 0];
  return `${formatIpv6(network)}/64`;
}

/** The eight 16-bit groups of an address that `isIP` accepted as IPv6 (without a zone). */
function ipv6Groups(address: string): number[] {
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").flatMap((group) => (group.includes(".") ? ipv4Groups(group) : [parseInt(group, 16)]));
  const [head, tail] = address.split("::") as [string, string?];
  if (tail === undefined) return parse(head);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function ipv4Groups(address: string): number[] {
  const [a, b, c, d] = address.split(".").map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d];
}

function formatIpv6(groups: number[]): string {
  let zeros = { start: 0, length: 0 };
  for (let start = 0; start < groups.length; start++) {
    let length = 0;
    while (groups[start + length] === 0) length++;
    if (length > zeros.length) zeros = { start, length };
  }
  const hex = groups.map((group) => group.toString(16));
  // RFC 5952 4.2.2: "::" never stands for a single zero group.
  if (zeros.length < 2) return hex.join(":");
  return `${hex.slice(0, zeros.start).join(":")}::${hex.slice(zeros.start + zeros.length).join(":")}`;
}
