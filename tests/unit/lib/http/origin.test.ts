import { describe, expect, it } from "vitest";
import { isHttpsRequest, requestOrigin } from "@/lib/http/origin";

const overHttps = { "x-forwarded-proto": "https" };

describe("isHttpsRequest", () => {
  it("believes X-Forwarded-Proto only from a trusted proxy", () => {
    expect(isHttpsRequest(new Headers(overHttps), 1)).toBe(true);
    expect(isHttpsRequest(new Headers({ "x-forwarded-proto": "https, http" }), 1)).toBe(true);
    expect(isHttpsRequest(new Headers({ "x-forwarded-proto": "http" }), 1)).toBe(false);
    expect(isHttpsRequest(new Headers(), 1)).toBe(false);
    expect(isHttpsRequest(new Headers(overHttps), 0)).toBe(false);
  });
});

describe("requestOrigin", () => {
  const origin = (headers: Record<string, string>, hops: number) => requestOrigin(new Headers(headers), hops);

  it("is the Host header over plain HTTP without a proxy", () => {
    expect(origin({ host: "127.0.0.1:3000" }, 0)).toBe("http://127.0.0.1:3000");
    expect(origin({ host: "[::1]:3000" }, 0)).toBe("http://[::1]:3000");
    expect(origin({ host: "Waitlist.Example:80" }, 0)).toBe("http://waitlist.example");
  });

  it("takes X-Forwarded-Host and X-Forwarded-Proto (their first values) from a trusted proxy", () => {
    const forwarded = { host: "127.0.0.1:3000", "x-forwarded-host": "api.example.com, 10.0.0.1", "x-forwarded-proto": "https, http" };
    expect(origin(forwarded, 1)).toBe("https://api.example.com");
    expect(origin({ ...forwarded, "x-forwarded-proto": "http" }, 1)).toBe("http://api.example.com");
    expect(origin({ host: "waitlist.example", ...overHttps }, 1)).toBe("https://waitlist.example");
  });

  it("ignores X-Forwarded-Host and X-Forwarded-Proto without a trusted proxy: the client could have sent them", () => {
    expect(origin({ host: "127.0.0.1:3000", "x-forwarded-host": "evil.example", ...overHttps }, 0)).toBe("http://127.0.0.1:3000");
  });

  it("is localhost when the host is missing or not a host", () => {
    expect(origin({}, 0)).toBe("http://localhost");
    for (const host of ["evil.example/path", "a b", "user@evil.example", "999.1.1.1", "[x]", "evil.example\\x", ""]) {
      expect(origin({ host }, 0), host).toBe("http://localhost");
      expect(origin({ host: "ok.example", "x-forwarded-host": host, ...overHttps }, 1), host).toBe(host === "" ? "https://ok.example" : "https://localhost");
    }
  });
});
