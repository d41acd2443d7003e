import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import type { RequestLogLine } from "@/lib/server/request-log";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { Contract, expectProblem } from "../support/api-contract";
import { bearer } from "../support/api-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

// The /v1 rate limits on a server of their own with tiny limits (5 requests per key, 3 failed
// authentications per address, per minute). The server trusts one proxy hop, so each test can act
// as a different client address with X-Forwarded-For (an IP address; anything else is ignored).
// One process (WEB_CONCURRENCY=1) counts the whole limit; cluster.spec.ts has two workers, each
// allowing half.

let server: TestServer;
let api: APIRequestContext;
let contract: Contract;
let waitlistId: string;

const from = (address: string, headers: Record<string, string> = {}) => ({ ...headers, "X-Forwarded-For": address });

function parseRateLimit(value: string | undefined) {
  const match = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(value ?? "");
  expect(match, `RateLimit: ${value}`).toBeTruthy();
  return { policy: match![1], remaining: Number(match![2]), reset: Number(match![3]) };
}

test.beforeAll(async () => {
  server = await startTestServer({
    portOffset: 1,
    name: "rate-limit",
    env: { WEB_CONCURRENCY: "1", RATE_LIMIT_PER_MINUTE: "5", AUTH_FAILURES_PER_MINUTE: "3", TRUSTED_PROXY_HOPS: "1" },
  });
  api = await playwrightRequest.newContext({ baseURL: server.url });
  contract = await Contract.load(api);
  waitlistId = (await createWaitlist({ name: "Rate limits", website: "https://example.com" }, server.db())).id;
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
});

test("a key gets its quota with RateLimit headers, then 429 with Retry-After; other keys are not affected", async () => {
  const key = (await createApiKey({ name: "limited", roles: ["waitlist:view"] }, server.db())).key;
  const other = (await createApiKey({ name: "other", roles: ["waitlist:view"] }, server.db())).key;
  const urls = ["/v1/waitlist", `/v1/waitlist/${waitlistId}`, `/v1/waitlist/${waitlistId}/signup`, "/v1/waitlist?limit=1", "/v1/waitlist?verfied=true"];
  for (const [index, url] of urls.entries()) {
    const response = await api.get(url, { headers: from("198.51.100.1", bearer(key)) });
    expect(response.status(), url).toBeLessThan(429);
    expect(response.headers()["ratelimit-policy"]).toBe('"per-key";q=5;w=60');
    const limit = parseRateLimit(response.headers()["ratelimit"]);
    expect(limit).toMatchObject({ policy: "per-key", remaining: 4 - index });
    expect(limit.reset).toBeGreaterThanOrEqual(1);
    expect(limit.reset).toBeLessThanOrEqual(60);
  }
  for (const url of ["/v1/waitlist", `/v1/waitlist/${waitlistId}/signup`]) {
    const refused = await api.get(url, { headers: from("198.51.100.1", bearer(key)) });
    const template = url === "/v1/waitlist" ? "/waitlist" : "/waitlist/{id}/signup";
    const body = await expectProblem(contract, refused, template, { status: 429, code: "rate_limited" });
    expect(body.detail).toMatch(/5 requests/);
    const retryAfter = Number(refused.headers()["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(parseRateLimit(refused.headers()["ratelimit"])).toMatchObject({ policy: "per-key", remaining: 0, reset: retryAfter });
  }
  // The same key from another address is still refused (the limit is per key) ...
  expect((await api.get("/v1/waitlist", { headers: from("198.51.100.2", bearer(key)) })).status()).toBe(429);
  // ... and another key from the same address is served.
  const served = await api.get("/v1/waitlist", { headers: from("198.51.100.1", bearer(other)) });
  expect(served.status()).toBe(200);
  expect(parseRateLimit(served.headers()["ratelimit"]).remaining).toBe(4);
  // HEAD counts too and gets the same headers without a body.
  const head = await api.head("/v1/waitlist", { headers: from("198.51.100.1", bearer(key)) });
  expect(head.status()).toBe(429);
  expect(head.headers()["retry-after"]).toBeDefined();
});

test("failed authentications are limited per client address and never charged to a key", async () => {
  const key = (await createApiKey({ name: "innocent", roles: ["waitlist:view"] }, server.db())).key;
  const attacker = "203.0.113.66";
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await api.get("/v1/waitlist", { headers: from(attacker, bearer(`wl_${"x".repeat(43)}`)) });
    await expectProblem(contract, response, "/waitlist", { status: 401, code: "unauthenticated" });
    expect(response.headers()["ratelimit-policy"]).toBe('"auth-failures";q=3;w=60');
    expect(parseRateLimit(response.headers()["ratelimit"])).toMatchObject({ policy: "auth-failures", remaining: 2 - attempt });
  }
  // The 4th failure, a request without a key, and even a valid key from that address: 429.
  for (const headers of [bearer(`wl_${"y".repeat(43)}`), {}, bearer(key)]) {
    const refused = await api.get(`/v1/waitlist/${waitlistId}`, { headers: from(attacker, headers) });
    const body = await expectProblem(contract, refused, "/waitlist/{id}", { status: 429, code: "rate_limited" });
    expect(body.detail).toMatch(/failed authentications/);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(parseRateLimit(refused.headers()["ratelimit"])).toMatchObject({ policy: "auth-failures", remaining: 0 });
  }
  // Another address is unaffected, and the key was charged nothing by all of the above.
  await expectProblem(contract, await api.get("/v1/waitlist", { headers: from("203.0.113.67") }), "/waitlist", { status: 401, code: "unauthenticated" });
  const served = await api.get("/v1/waitlist", { headers: from("203.0.113.67", bearer(key)) });
  expect(served.status()).toBe(200);
  expect(parseRateLimit(served.headers()["ratelimit"])).toMatchObject({ policy: "per-key", remaining: 4 });
});

test("the OpenAPI document and unknown paths are not limited", async () => {
  for (let i = 0; i < 8; i++) {
    const response = await api.get("/v1/openapi.json", { headers: from("203.0.113.66") });
    expect(response.status()).toBe(200);
    expect(response.headers()["ratelimit"]).toBeUndefined();
  }
  const unknown = await api.get("/v1/nothing-here", { headers: from("203.0.113.66") });
  await expectProblem(contract, unknown, null, { status: 404, code: "not_found" });
});

const wrongKey = bearer(`wl_${"z".repeat(43)}`);

async function loggedClient(requestId: string): Promise<string> {
  let line: RequestLogLine | undefined;
  await expect
    .poll(() => {
      line = server.stdout.filter((text) => text.startsWith("{")).map((text) => JSON.parse(text) as RequestLogLine).find((entry) => entry.request_id === requestId);
      return line !== undefined;
    })
    .toBe(true);
  return line!.client;
}

/** Fails authentication from each of `addresses` in turn; the statuses and remaining failures. */
async function failFrom(addresses: string[]) {
  const outcomes: { status: number; remaining: number; requestId: string }[] = [];
  for (const address of addresses) {
    const response = await api.get("/v1/waitlist", { headers: from(address, wrongKey) });
    outcomes.push({ status: response.status(), remaining: parseRateLimit(response.headers()["ratelimit"]).remaining, requestId: response.headers()["request-id"]! });
  }
  return outcomes;
}

// Keep these two last: the first uses up the failures of 127.0.0.1, the address of every request
// without a usable X-Forwarded-For.
test("X-Forwarded-For values that are not IP addresses are ignored: rotating them does not escape the failure limit", async () => {
  const garbage = ["not-an-ip", "1.2.3.4:5678", "[::1]", "9".repeat(4_000), "fe80::1%eth0", "203.0.113.70 203.0.113.71"];
  const outcomes = await failFrom(garbage);
  // All counted against the TCP peer (the test runner, 127.0.0.1), which the log names as the client.
  expect(outcomes.map(({ status }) => status)).toEqual([401, 401, 401, 429, 429, 429]);
  expect(outcomes.map(({ remaining }) => remaining)).toEqual([2, 1, 0, 0, 0, 0]);
  expect(await loggedClient(outcomes[0]!.requestId)).toBe("127.0.0.1");
  expect((await api.get("/v1/waitlist", { headers: wrongKey })).status()).toBe(429);
  // A real address behind the proxy is unaffected.
  expect((await failFrom(["203.0.113.70"]))[0]).toMatchObject({ status: 401, remaining: 2 });
});

test("rotating addresses inside one IPv6 /64 does not escape the failure limit; another /64 is unaffected", async () => {
  const sameNetwork = ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:DB8:5:6:ffff:ffff:ffff:ffff", "2001:0db8:0005:0006:abcd::9"];
  const outcomes = await failFrom(sameNetwork);
  expect(outcomes.map(({ status }) => status)).toEqual([401, 401, 401, 429]);
  // The log keeps the whole address (written one way).
  expect(await loggedClient(outcomes[1]!.requestId)).toBe("2001:db8:5:6::2");
  expect(await loggedClient(outcomes[2]!.requestId)).toBe("2001:db8:5:6:ffff:ffff:ffff:ffff");
  expect((await failFrom(["2001:db8:5:7::1"]))[0]).toMatchObject({ status: 401, remaining: 2 });
  // An IPv4 address written as IPv4-mapped IPv6 is that IPv4 address.
  expect(await failFrom(["203.0.113.80", "::ffff:203.0.113.80", "::ffff:cb00:7150"])).toMatchObject([{ remaining: 2 }, { remaining: 1 }, { remaining: 0 }]);
});
