import { expect, test } from "@playwright/test";
import { Ajv2020 } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { createApiKey, revokeApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import type { OpenApiDocument } from "@/lib/api/openapi-types";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { makeSignups } from "../support/api-fixtures";
import { rawRequest, type RawResponse } from "../support/raw-http";
import { startTestServer, type TestServer } from "../support/test-server";
import { seededRandom } from "@/lib/seed/random";

// Hostile input: a seeded stream of malformed requests (odd paths and ids, long and non-UTF-8
// query strings, SQL and HTML metacharacters, duplicated and conflicting headers, huge headers,
// wrong methods, garbage cookies and keys) sent over raw sockets, so nothing is normalised on the
// way. No answer may be a 5xx, every answer carries the security headers, every /v1 error is a
// valid problem body, and afterwards the server still serves the right data.
// Reproduce a run with FUZZ_SEED=<seed> (printed); FUZZ_COUNT sets the number of requests.

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const COUNT = Number(process.env.FUZZ_COUNT ?? 5000);
const CONCURRENCY = 4;

/** The demo seed's PRNG, with `int(n)` in [0, n). */
function prng(seed: number) {
  const random = seededRandom(seed);
  return { ...random, int: (n: number) => random.int(0, n - 1) };
}

let server: TestServer;
let fixtures: { waitlistId: string; key: string; revoked: string; noRole: string; signups: number; session: string; revokedSession: string };

test.beforeAll(async () => {
  server = await startTestServer({ portOffset: 3, name: "fuzz", env: { AUTH_FAILURES_PER_MINUTE: "1000000", RATE_LIMIT_PER_MINUTE: "1000000", DASHBOARD_REQUESTS_PER_MINUTE: "1000000", REQUEST_LOG: "off" } });
  const db = server.db();
  const waitlist = await createWaitlist({ name: "Fuzz <b>target</b>", website: "https://example.com" }, db);
  const insert = db.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const seeds = makeSignups(120, "fuzz");
  db.$client.transaction(() => seeds.forEach((seed) => insert.run(waitlist.id, seed.email, seed.verified ? 1 : 0, seed.referral ? 1 : 0, JSON.stringify(seed.customInputs), seed.createdAt)))();
  const revoked = await createApiKey({ name: "fuzz revoked", roles: ["waitlist:view"] }, db);
  const revokedSession = (await createSession(revoked.id, db)).token;
  await revokeApiKey(revoked.id, db);
  const key = await createApiKey({ name: "fuzz", roles: ["waitlist:view"] }, db);
  fixtures = {
    waitlistId: waitlist.id,
    key: key.key,
    // Half of the dashboard requests are signed in, so the pages themselves get the hostile input.
    session: (await createSession(key.id, db)).token,
    revokedSession,
    revoked: revoked.key,
    noRole: (await createApiKey({ name: "fuzz no role", roles: [] }, db)).key,
    signups: seeds.length,
  };
});

test.afterAll(async () => {
  await server?.stop();
});

const HOSTILE = [
  "' OR '1'='1",
  "1; DROP TABLE signups;--",
  '" OR ""="',
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "%00",
  "%",
  "%ZZ",
  "%FF%FE%FD",
  "%C0%AE%C0%AE",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e",
  "\\..\\",
  "$(id)",
  "${jndi:ldap://x}",
  "%F0%9F%98%80",
  "NaN",
  "-0",
  "1e309",
  "9".repeat(40),
  "true%00",
  "[object Object]",
  "__proto__",
  "constructor",
];

/** One random request: its raw head (and body), and what we know about where it goes. */
function makeRequest(random: ReturnType<typeof prng>) {
  const { pick, chance, int } = random;
  const id = () =>
    pick([
      fixtures.waitlistId,
      fixtures.waitlistId.toUpperCase(),
      "6f1c1a52-34b3-4c2e-9d59-0a4f1b2c3d4e",
      "not-a-uuid",
      pick(HOSTILE),
      "x".repeat(int(5000)),
      `${fixtures.waitlistId}%00`,
      `${fixtures.waitlistId}/..`,
      "",
    ]);
  const path = pick<() => string>([
    () => "/v1/waitlist",
    () => `/v1/waitlist/${id()}`,
    () => `/v1/waitlist/${id()}/signup`,
    () => "/v1/openapi.json",
    () => `/v1/${pick(HOSTILE)}`,
    () => `/v1/waitlist/${id()}/signup/${pick(HOSTILE)}`,
    () => pick(["/v1", "/v1/", "//v1/waitlist", "/v1//waitlist", "/v1/waitlist/", "/V1/waitlist", "/v1/./waitlist", "/v1/waitlist/../waitlist"]),
    () => "/",
    () => "/docs/api",
    () => "/signin",
    () => `/waitlists/${id()}`,
    () => `/waitlists/${id()}/export`,
    () => `/waitlists/${id()}/export.csv`,
    () => `/${pick(HOSTILE)}`,
    () => `/_next/static/${pick(HOSTILE)}`,
    () => "/_next/image?url=%2Fx&w=1&q=1",
    () => "/favicon.ico",
  ])();
  const params = pick(["verified", "referral", "limit", "cursor", "q", "sort", "dir", "page", "size", "api_key", "verfied", pick(HOSTILE), ""]);
  const values = () => pick(["true", "false", "", "1", "1000", "1001", "-1", pick(HOSTILE), "x".repeat(int(9000)), "eyJzIjoiIn0", "AAAA", "%FF%FF"]);
  let query = "";
  const paramCount = chance(0.6) ? int(6) : 0;
  for (let i = 0; i < paramCount; i++) query += `${i ? "&" : "?"}${chance(0.5) ? params : pick(["verified", "limit", "cursor", "q", "page"])}=${values()}`;
  if (chance(0.05)) query += `?&&==&${"a=".repeat(int(300))}`;
  const method = pick(["GET", "GET", "GET", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE"]);
  const headers: string[] = [`Host: ${pick(["127.0.0.1", "localhost", "evil.example", "127.0.0.1:1", "[::1]", "a b", "x".repeat(300)])}`];
  const credentials = pick([
    () => [`Authorization: Bearer ${fixtures.key}`],
    () => [`X-API-Key: ${fixtures.key}`],
    () => [`Authorization: Bearer ${fixtures.revoked}`],
    () => [`Authorization: Bearer ${fixtures.noRole}`],
    () => [`Authorization: Bearer ${fixtures.key}`, `Authorization: Bearer ${fixtures.revoked}`],
    () => [`Authorization: Bearer ${fixtures.revoked}`, `X-API-Key: ${fixtures.key}`],
    () => [`Authorization: Bearer ${fixtures.key.slice(0, -1)}${pick(["A", "_", "-", "é"])}`],
    () => [`Authorization: ${pick(["Bearer", "Bearer ", "Basic Zm9vOmJhcg==", "bearer  " + fixtures.key, "Bearer wl_" + pick(HOSTILE), "Token x", "Bearer " + "A".repeat(6000)])}`],
    () => [`X-API-Key: ${pick(HOSTILE)}`, `X-API-Key: ${fixtures.key}`],
    () => [],
  ])();
  headers.push(...credentials);
  if (chance(0.5)) headers.push(`Cookie: wl_session=${fixtures.session}`);
  else if (chance(0.3)) headers.push(`Cookie: ${pick([`wl_session=${fixtures.revokedSession}`, "wl_session=garbage", `wl_session=${"z".repeat(3000)}`, "wl_session=", ";;;==;", "wl_session=a; wl_session=b", `wl_session=${fixtures.key}`, "%FF=%FF"])}`);
  if (chance(0.2)) headers.push(`X-Forwarded-For: ${pick(["1.2.3.4", "::1, 10.0.0.1", "not-an-ip", pick(HOSTILE)])}`);
  if (chance(0.2)) headers.push(`X-Forwarded-Host: ${pick(["evil.example", "a/b", pick(HOSTILE), ""])}`, `X-Forwarded-Proto: ${pick(["https", "gopher", ""])}`);
  if (chance(0.1)) headers.push(`X-Huge: ${"h".repeat(pick([1000, 8000, 15000, 70000]))}`);
  if (chance(0.1)) headers.push(`Accept: ${pick(["*/*", "text/csv", "application/xml", "ÿþ", ";;;"])}`, `Range: ${pick(["bytes=0-1", "bytes=999999-", "lines=1"])}`);
  if (chance(0.1)) headers.push(`RSC: 1`, `Next-Router-State-Tree: ${pick(["%5B%5D", "garbage", "%FF"])}`);
  if (chance(0.05)) headers.push(`Content-Type: ${pick(["application/json", "multipart/form-data; boundary=x", "text/plain"])}`);
  let body = Buffer.alloc(0);
  if (method !== "GET" && method !== "HEAD" && chance(0.5)) body = Buffer.from(pick(['{"a":1}', "a=b&c=d", "\u0000\u00ff", "x".repeat(int(20000))]), "latin1");
  headers.push(`Content-Length: ${body.length}`, "Connection: close");
  let target = path + query;
  // Raw bytes that are not UTF-8, unescaped, in the target now and then.
  if (chance(0.03)) target += pick(["\xff\xfe", "\x80", "\xc3\x28"]);
  const head = Buffer.from(`${method} ${target} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n`, "latin1");
  // Where the server routes it: dot segments ("/v1/%2e%2e" is "/") resolved as URL parsing does.
  const routed = new URL(`http://x${path}`).pathname;
  return { method, target, head, body, api: /^\/v1(\/|$)/.test(routed) };
}

test(`${COUNT} seeded malformed requests: no 5xx, security headers everywhere, /v1 errors are valid problems`, async ({ request }) => {
  test.setTimeout(120_000);
  const document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validateProblem = ajv.compile({ ...document.components.schemas.Problem, components: document.components } as object);
  const random = prng(SEED);
  const requests = Array.from({ length: COUNT }, () => makeRequest(random));
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let unparsed = 0;
  const started = Date.now();

  const check = (sent: ReturnType<typeof makeRequest>, response: RawResponse) => {
    const headerNames = sent.head.toString("latin1").split("\r\n").slice(1, -2).map((line) => `${line.split(":")[0]}(${line.length})`);
    const what = `${sent.method} ${JSON.stringify(sent.target.slice(0, 120))} [${headerNames.join(" ")}]`;
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    const header = (name: string) => response.headers.get(name)?.[0];
    if (response.status >= 500) failures.push(`${what}: ${response.status} ${response.body.subarray(0, 200).toString("latin1")}`);
    if (header("x-content-type-options") !== "nosniff" || !header("content-security-policy")?.includes("frame-ancestors 'none'")) failures.push(`${what}: security headers missing`);
    if (response.headers.has("x-powered-by")) failures.push(`${what}: X-Powered-By`);
    // Node's parser refuses some requests before any routing (no Request-Id): a bare 400/431.
    if (!response.headers.has("request-id")) {
      unparsed++;
      if (![400, 431].includes(response.status)) failures.push(`${what}: ${response.status} without Request-Id`);
      return;
    }
    if (!sent.api || response.status < 400) return;
    if (header("content-type") !== "application/problem+json") return failures.push(`${what}: ${response.status} ${header("content-type")}`);
    if (sent.method === "HEAD") return;
    let body: { status?: number; request_id?: string } = {};
    try {
      body = JSON.parse(response.body.toString("utf8")) as typeof body;
    } catch {
      return failures.push(`${what}: problem body is not JSON`);
    }
    if (!validateProblem(body)) failures.push(`${what}: ${ajv.errorsText(validateProblem.errors)}`);
    if (body.status !== response.status || body.request_id !== header("request-id")) failures.push(`${what}: status or request_id mismatch`);
  };

  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const sent = requests[next++]!;
        try {
          check(sent, await rawRequest(server.port, { head: sent.head, body: sent.body, bodyless: sent.method === "HEAD" }));
        } catch (error) {
          failures.push(`${sent.method} ${JSON.stringify(sent.target.slice(0, 120))}: ${(error as Error).message}`);
        }
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `fuzz: seed ${SEED}, ${requests.length} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ${unparsed} refused by the HTTP parser`,
  );
  expect(failures.slice(0, 20), `${failures.length} failures`).toEqual([]);
  expect(requests.length).toBeGreaterThanOrEqual(5000);

  // Still answering, with the same data.
  const list = await request.get(`${server.url}/v1/waitlist/${fixtures.waitlistId}/signup`, { headers: { Authorization: `Bearer ${fixtures.key}` } });
  expect(list.status()).toBe(200);
  expect(((await list.json()) as unknown[]).length).toBe(fixtures.signups);
  expect((await request.get(`${server.url}/`)).status()).toBe(200);
  expect(server.db().$client.pragma("integrity_check", { simple: true })).toBe("ok");
  expect(server.stderr.join("\n")).not.toContain(fixtures.key);
});
