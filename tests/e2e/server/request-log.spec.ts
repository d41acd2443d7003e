import { expect, test } from "@playwright/test";
import { createApiKey, revokeApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import type { RequestLogLine } from "@/lib/server/request-log";
import { startTestServer, type TestServer } from "../support/test-server";

// The production server writes one JSON line per request to stdout, with the real status and
// duration, the request id of the Request-Id header and the key id; never a key, cookie or token.

let server: TestServer;

test.beforeAll(async () => {
  server = await startTestServer({ portOffset: 2, name: "request-log" });
});

test.afterAll(async () => {
  await server?.stop();
});

type LogLine = RequestLogLine;

async function logLineFor(requestId: string): Promise<LogLine> {
  let line: LogLine | undefined;
  await expect
    .poll(() => {
      line = server.stdout.filter((text) => text.startsWith("{")).map((text) => JSON.parse(text) as LogLine).find((entry) => entry.request_id === requestId);
      return line !== undefined;
    })
    .toBe(true);
  return line!;
}

test("one line per request with method, path, parameter names, status, duration, request id and key id", async () => {
  const db = server.db();
  const key = await createApiKey({ name: "logged", roles: ["waitlist:view"] }, db);
  const revoked = await createApiKey({ name: "logged revoked", roles: ["waitlist:view"] }, db);
  await revokeApiKey(revoked.id, db);
  const waitlist = await createWaitlist({ name: "Logged", website: "https://example.com" }, db);
  const sessionSecret = "s3ss10n-t0ken-that-must-not-leak";
  const session = (await createSession(key.id, db)).token;
  const cases: { path: string; headers: Record<string, string>; status: number; keyId: string | null; params?: string[] }[] = [
    { path: `/v1/waitlist/${waitlist.id}/signup?verified=true&limit=2`, headers: { Authorization: `Bearer ${key.key}` }, status: 200, keyId: key.id, params: ["verified", "limit"] },
    { path: "/v1/waitlist", headers: { "X-API-Key": key.key }, status: 200, keyId: key.id },
    { path: `/v1/waitlist?api_key=${key.key}&token=${sessionSecret}`, headers: {}, status: 401, keyId: null, params: ["api_key", "token"] },
    { path: `/v1/waitlist/${key.key}`, headers: { Authorization: `Bearer ${revoked.key}` }, status: 401, keyId: null },
    { path: "/v1/waitlist", headers: { Cookie: `wl_session=${sessionSecret}; other=${key.key}` }, status: 401, keyId: null },
    { path: `/?q=${sessionSecret}`, headers: { Cookie: `${SESSION_COOKIE}=${sessionSecret}` }, status: 307, keyId: null, params: ["q"] },
    { path: `/?q=${session}`, headers: { Cookie: `${SESSION_COOKIE}=${session}` }, status: 200, keyId: key.id, params: ["q"] },
    { path: `/waitlists/${waitlist.id}/export?verified=true`, headers: { Cookie: `${SESSION_COOKIE}=${session}` }, status: 200, keyId: key.id, params: ["verified"] },
    { path: "/signin", headers: {}, status: 200, keyId: null },
    { path: "/no-such-page", headers: {}, status: 307, keyId: null },
  ];
  for (const { path, headers, status, keyId, params } of cases) {
    const started = Date.now();
    const response = await fetch(server.url + path, { headers, redirect: "manual" });
    await response.arrayBuffer();
    const elapsed = Date.now() - started;
    expect(response.status, path).toBe(status);
    const requestId = response.headers.get("request-id")!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await logLineFor(requestId);
    expect(line).toMatchObject({ msg: "request", method: "GET", path: path.split("?")[0]!.replace(key.key, "wl_[redacted]"), status, key_id: keyId });
    expect(line.query_params).toEqual(params);
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    // Measured by the server, so at most what the client saw (plus scheduling noise).
    expect(line.duration_ms).toBeLessThanOrEqual(elapsed + 50);
    expect(Number.isNaN(Date.parse(line.time))).toBe(false);
  }
  const everything = [...server.stdout, ...server.stderr].join("\n");
  for (const secret of [key.key, revoked.key, sessionSecret, session, key.key.slice(3)]) expect(everything).not.toContain(secret);
});

test("a request the client abandons is still logged exactly once", async () => {
  const key = await createApiKey({ name: "abandoned", roles: ["waitlist:view"] }, server.db());
  const controller = new AbortController();
  const response = await fetch(`${server.url}/v1/waitlist`, { headers: { Authorization: `Bearer ${key.key}` }, signal: controller.signal });
  const requestId = response.headers.get("request-id")!;
  controller.abort();
  const line = await logLineFor(requestId);
  expect(line.key_id).toBe(key.id);
  expect(server.stdout.filter((text) => text.includes(requestId))).toHaveLength(1);
});
