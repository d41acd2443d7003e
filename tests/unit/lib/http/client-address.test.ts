import { describe, expect, it } from "vitest";
import { peerAddress, resolveClientAddress } from "@/lib/http/client-address";
import { addressLimiterKey, canonicalIpAddress } from "@/lib/http/ip-address";

const GARBAGE = [
  "",
  "unknown",
  "not-an-ip",
  "evil.example",
  "1.2.3.4:5678",
  "[::1]",
  "[2001:db8::1]:443",
  "01.2.3.4",
  "1.2.3",
  "256.1.1.1",
  "1.2.3.4 5.6.7.8",
  "2001:db8::1::2",
  "2001:db8::g",
  "fe80::1%eth0",
  `fe80::1%${"x".repeat(40)}`,
  "1".repeat(16_000),
  `::ffff:${"1".repeat(100)}`,
];

describe("canonicalIpAddress", () => {
  it("keeps IPv4 addresses as they are", () => {
    for (const address of ["203.0.113.9", "0.0.0.0", "255.255.255.255", "127.0.0.1"]) expect(canonicalIpAddress(address)).toBe(address);
  });

  it("writes IPv6 addresses one way (RFC 5952)", () => {
    expect(canonicalIpAddress("2001:DB8:0:0:0:0:0:1")).toBe("2001:db8::1");
    expect(canonicalIpAddress("2001:0db8:0000:0001:0000:0000:0000:0001")).toBe("2001:db8:0:1::1");
    expect(canonicalIpAddress("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1");
    expect(canonicalIpAddress("2001:db8:0:1:1:1:1:1")).toBe("2001:db8:0:1:1:1:1:1");
    expect(canonicalIpAddress("::")).toBe("::");
    expect(canonicalIpAddress("::1")).toBe("::1");
    expect(canonicalIpAddress("fe80::")).toBe("fe80::");
    expect(canonicalIpAddress("64:ff9b::192.0.2.33")).toBe("64:ff9b::c000:221");
  });

  it("agrees with the WHATWG URL serializer on IPv6", () => {
    const samples = ["2001:db8::1", "1:0:0:2:0:0:0:3", "0:0:1:0:0:1:0:0", "ABCD:EF01::", "::2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "2001:db8:aaaa:bbbb:cccc:dddd:eeee:1"];
    for (const address of samples) expect(canonicalIpAddress(address)).toBe(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  });

  it("turns IPv4-mapped IPv6 addresses into IPv4", () => {
    expect(canonicalIpAddress("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(canonicalIpAddress("::FFFF:192.0.2.1")).toBe("192.0.2.1");
    expect(canonicalIpAddress("::ffff:c000:201")).toBe("192.0.2.1");
    expect(canonicalIpAddress("0:0:0:0:0:ffff:127.0.0.1")).toBe("127.0.0.1");
  });

  it("refuses anything else: ports, brackets, zones, host names, lists, over-long text", () => {
    for (const text of GARBAGE) expect(canonicalIpAddress(text), text.slice(0, 40)).toBeNull();
  });
});

describe("addressLimiterKey", () => {
  it("is an IPv4 address itself", () => {
    expect(addressLimiterKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressLimiterKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("groups IPv6 addresses by their /64", () => {
    const sameNetwork = ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:DB8:1:2:ffff:ffff:ffff:ffff", "2001:0db8:0001:0002:abcd:0:0:1"];
    for (const address of sameNetwork) expect(addressLimiterKey(address)).toBe("2001:db8:1:2::/64");
    expect(addressLimiterKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressLimiterKey("2001:db8::1")).toBe("2001:db8::/64");
    expect(addressLimiterKey("::1")).toBe("::/64");
  });

  it("leaves what is not an IP address alone (the server's \"unknown\")", () => {
    expect(addressLimiterKey("unknown")).toBe("unknown");
  });
});

describe("resolveClientAddress", () => {
  it("is the peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(resolveClientAddress("10.0.0.5", "1.2.3.4", 0)).toBe("10.0.0.5");
    expect(resolveClientAddress(undefined, undefined, 0)).toBe("unknown");
  });

  it("names an IPv4 peer of a dual-stack socket by its IPv4 address", () => {
    expect(resolveClientAddress("::ffff:10.0.0.5", undefined, 0)).toBe("10.0.0.5");
    expect(resolveClientAddress("::ffff:10.0.0.5", "garbage", 1)).toBe("10.0.0.5");
  });

  it("is the entry added by the outermost trusted proxy", () => {
    expect(resolveClientAddress("10.0.0.5", "203.0.113.9", 1)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.0.0.5", "6.6.6.6, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.0.0.5", ["6.6.6.6", "203.0.113.9, 10.0.0.4"], 2)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.0.0.5", " 2001:DB8::9 ", 1)).toBe("2001:db8::9");
    expect(resolveClientAddress("10.0.0.5", "::ffff:203.0.113.9", 1)).toBe("203.0.113.9");
    // Fewer entries than hops: the first one there is.
    expect(resolveClientAddress("10.0.0.5", "203.0.113.9", 2)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.0.0.5", undefined, 2)).toBe("10.0.0.5");
  });

  it("is the peer when the entry at the trusted position is not an IP address", () => {
    for (const entry of GARBAGE.filter(Boolean)) {
      expect(resolveClientAddress("10.0.0.5", entry, 1), entry.slice(0, 40)).toBe("10.0.0.5");
      expect(resolveClientAddress("10.0.0.5", `203.0.113.9, ${entry}`, 1), entry.slice(0, 40)).toBe("10.0.0.5");
    }
    // A forged entry further left does not matter; a garbage one at the trusted position does.
    expect(resolveClientAddress("10.0.0.5", "not-an-ip, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(resolveClientAddress("10.0.0.5", "203.0.113.9, 1.2.3.4:5678, 10.0.0.4", 2)).toBe("10.0.0.5");
  });
});

describe("peerAddress", () => {
  it("names a connection's peer in canonical form, worked out once per connection", () => {
    const socket: { remoteAddress?: string } = { remoteAddress: "::ffff:192.0.2.1" };
    expect(peerAddress(socket)).toBe("192.0.2.1");
    socket.remoteAddress = "2001:DB8:0:0:0:0:0:1";
    expect(peerAddress(socket)).toBe("192.0.2.1");
    expect(peerAddress({ remoteAddress: "2001:DB8:0:0:0:0:0:1" })).toBe("2001:db8::1");
    expect(peerAddress({})).toBeUndefined();
  });
});
