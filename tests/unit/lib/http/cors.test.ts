import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/core/env";
import { corsHeaders, isPreflight, preflightHeaders } from "@/lib/http/cors";

describe("CORS_ORIGINS", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["  ", undefined],
    ["*", "*"],
    [" * ", "*"],
    ["https://app.example", ["https://app.example"]],
    ["https://app.example, http://localhost:5173,https://app.example", ["https://app.example", "http://localhost:5173"]],
    ["http://[::1]:8080", ["http://[::1]:8080"]],
  ])("%j is %j", (value, policy) => {
    expect(parseEnv({ CORS_ORIGINS: value }).CORS_ORIGINS).toEqual(policy);
  });

  it.each([
    ["https://app.example/", 'did you mean "https://app.example"'],
    ["https://app.example/path", 'did you mean "https://app.example"'],
    ["https://App.Example", 'did you mean "https://app.example"'],
    ["https://app.example:443", 'did you mean "https://app.example"'],
    ["app.example", "write scheme://host[:port]"],
    ["ftp://app.example", "write scheme://host[:port]"],
    ["https://a.example, *", "`*` stands alone"],
    ["https://a.example,,https://b.example", '"" is not an origin'],
  ])("%j is refused at start-up, naming the entry", (value, message) => {
    expect(() => parseEnv({ CORS_ORIGINS: value })).toThrow(/^Invalid environment: CORS_ORIGINS: /);
    expect(() => parseEnv({ CORS_ORIGINS: value })).toThrow(message);
  });
});

describe("the CORS headers of /v1", () => {
  const exposed = "Link, Request-Id, RateLimit, RateLimit-Policy, Retry-After, ETag";

  it("are absent when CORS is off, except on public resources", () => {
    expect(corsHeaders(undefined, "https://app.example")).toEqual({});
    expect(corsHeaders(undefined, "https://app.example", { anyOrigin: true })).toEqual({ "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": exposed });
    expect(preflightHeaders(undefined, "https://app.example")).toEqual({});
  });

  it("allow any origin with *, never with credentials", () => {
    expect(corsHeaders("*", "https://anyone.example")).toEqual({ "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": exposed });
    const preflight = preflightHeaders("*", "https://anyone.example");
    expect(preflight).toEqual({
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": "GET, HEAD",
      "Access-Control-Allow-Headers": "Authorization, X-API-Key, If-None-Match",
      "Access-Control-Max-Age": "600",
    });
    expect(Object.keys(preflight).map((name) => name.toLowerCase())).not.toContain("access-control-allow-credentials");
  });

  it("echo a listed origin only, and vary on Origin either way", () => {
    const policy = ["https://app.example"];
    expect(corsHeaders(policy, "https://app.example")).toEqual({ "Access-Control-Allow-Origin": "https://app.example", "Access-Control-Expose-Headers": exposed, Vary: "Origin" });
    expect(corsHeaders(policy, "https://evil.example")).toEqual({ Vary: "Origin" });
    expect(corsHeaders(policy, null)).toEqual({ Vary: "Origin" });
    expect(preflightHeaders(policy, "https://evil.example")).toEqual({ Vary: "Origin" });
    expect(preflightHeaders(policy, "https://app.example")).toMatchObject({ "Access-Control-Allow-Origin": "https://app.example", Vary: "Origin", "Access-Control-Allow-Headers": "Authorization, X-API-Key, If-None-Match" });
  });

  it("recognise a preflight by its Origin and Access-Control-Request-Method", () => {
    expect(isPreflight("OPTIONS", new Headers({ origin: "https://a.example", "access-control-request-method": "GET" }))).toBe(true);
    expect(isPreflight("OPTIONS", new Headers({ origin: "https://a.example" }))).toBe(false);
    expect(isPreflight("GET", new Headers({ origin: "https://a.example", "access-control-request-method": "GET" }))).toBe(false);
  });
});
