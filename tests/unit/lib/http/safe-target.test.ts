import { describe, expect, it } from "vitest";
import { isForbiddenAddress, refuseLiteralAddress, safeLookup } from "@/lib/http/safe-target";

describe("isForbiddenAddress", () => {
  it("refuses loopback, private, link-local, metadata and reserved addresses, in any spelling", () => {
    for (const address of [
      "127.0.0.1",
      "127.1.2.3",
      "0.0.0.0",
      "10.0.0.1",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.100.100.200",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
      "fd00:ec2::254",
      "fe80::1",
      "FE80::abcd",
      "fc00::1",
      "ff02::1",
      "64:ff9b::7f00:1",
      "not an address",
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
  });

  it("refuses IPv6 outside global unicast, whatever IPv4 address it embeds and however it is spelled", () => {
    for (const address of [
      // IPv4-compatible, ::/96
      "::127.0.0.1",
      "::7f00:1",
      "::8.8.8.8",
      "0:0:0:0:0:0:a9fe:a9fe",
      // IPv4-translated, ::ffff:0:0:0/96, and the mapped form spelled out in full
      "::ffff:0:7f00:1",
      "::ffff:0:127.0.0.1",
      "0:0:0:0:0:ffff:7f00:0001",
      "0000:0000:0000:0000:0000:FFFF:A9FE:A9FE",
      // NAT64, the well-known prefix and the local-use one, 64:ff9b:1::/48
      "64:ff9b::127.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::7f00:1",
      "64:ff9b:1:ffff::8.8.8.8",
      // Teredo, 6to4, discard, documentation
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "2002:7f00:1::",
      "100::1",
      "2001:db8::1",
      "3fff::1",
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
  });

  it("allows public addresses", () => {
    for (const address of ["93.184.215.14", "8.8.8.8", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8"]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });
});

describe("refuseLiteralAddress", () => {
  it("refuses a URL whose host is a forbidden IP address, and lets names through to the lookup", () => {
    expect(() => refuseLiteralAddress(new URL("http://127.0.0.1:8080/hook"))).toThrow(/127\.0\.0\.1.*WEBHOOK_ALLOW_PRIVATE=1/);
    expect(() => refuseLiteralAddress(new URL("http://[::1]/hook"))).toThrow(/::1/);
    expect(() => refuseLiteralAddress(new URL("https://169.254.169.254/latest/meta-data"))).toThrow(/169\.254\.169\.254/);
    expect(() => refuseLiteralAddress(new URL("https://8.8.8.8/hook"))).not.toThrow();
    expect(() => refuseLiteralAddress(new URL("https://example.com/hook"))).not.toThrow();
  });
});

describe("safeLookup", () => {
  const lookup = (host: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) => safeLookup(host, { all } as never, (error, address) => resolve({ error, address })));

  it("refuses a name that resolves to a loopback address (as a rebinding name would), with or without `all`", async () => {
    for (const all of [false, true]) {
      const { error } = await lookup("localhost", all);
      expect(error?.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback, private, link-local or reserved address/);
      expect(error?.code).toBe("EFORBIDDENADDRESS");
    }
  });
});
