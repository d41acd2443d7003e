import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { startTestServer, type TestServer } from "../support/test-server";

// A browser app on another origin calling /v1, in real Chromium: a tiny static server serves the
// app's page on a second port (its origin: http://127.0.0.1:<port>; the same server reached as
// http://localhost:<port> is a third origin, not allowed), and the page fetches from the API.

const basePort = Number(process.env.E2E_PORT ?? 3100);
const appPort = basePort + 21;
const allowedOrigin = `http://127.0.0.1:${appPort}`;
const otherOrigin = `http://localhost:${appPort}`;

let api: TestServer;
let app: Server;
let key: string;

test.beforeAll(async () => {
  api = await startTestServer({ portOffset: 20, name: "cors", env: { CORS_ORIGINS: `https://unused.example, ${allowedOrigin}` } });
  key = (await createApiKey({ name: "browser app", roles: ["waitlist:view"] }, api.db())).key;
  for (const name of ["First", "Second"]) await createWaitlist({ name, website: "https://app.example/" }, api.db());
  app = createServer((_request, response) => response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end("<!doctype html><title>Browser app</title><h1>Browser app</h1>"));
  app.listen(appPort, "127.0.0.1");
  await once(app, "listening");
});

test.afterAll(async () => {
  await api?.stop();
  await new Promise((resolve) => app?.close(resolve));
});

interface Outcome {
  ok: boolean;
  status?: number;
  headers?: Record<string, string | null>;
  body?: string;
  error?: string;
}

/** Runs fetch in the page (so with its origin, as the app would) and reports what the app could see. */
function fetchFromPage(page: Page, url: string, init: { headers?: Record<string, string>; credentials?: RequestCredentials } = {}): Promise<Outcome> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const response = await fetch(url, init);
        // What a page can read of a cross-origin response: the safelisted headers and the exposed ones.
        const names = ["link", "request-id", "ratelimit", "ratelimit-policy", "etag", "content-type", "cache-control"];
        return { ok: true, status: response.status, headers: Object.fromEntries(names.map((name) => [name, response.headers.get(name)])), body: await response.text() };
      } catch (error) {
        return { ok: false, error: String(error) };
      }
    },
    { url, init },
  );
}

test("an allowed origin reads lists, pages and their headers with a key in Authorization or X-API-Key", async ({ page }) => {
  await page.goto(`${allowedOrigin}/`);
  await expect(page.getByRole("heading", { name: "Browser app" })).toBeVisible();
  const first = await fetchFromPage(page, `${api.url}/v1/waitlist?limit=1`, { headers: { Authorization: `Bearer ${key}` } });
  expect(first.ok, first.error).toBe(true);
  expect(first.status).toBe(200);
  expect(JSON.parse(first.body!)).toEqual([expect.objectContaining({ name: "First" })]);
  // The exposed headers are readable by the app.
  expect(first.headers!["link"]).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v1\/waitlist\?limit=1&cursor=[^>]+>; rel="next"$/);
  expect(first.headers!["request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  expect(first.headers!["ratelimit"]).toMatch(/^"per-key";r=\d+;t=\d+$/);
  expect(first.headers!["ratelimit-policy"]).toMatch(/^"per-key";q=\d+;w=60$/);
  expect(first.headers!["cache-control"]).toBe("private, no-cache");
  const etag = first.headers!["etag"]!;
  expect(etag).toMatch(/^W\/"/);
  // Following Link, with the other way of sending the key, and a conditional request.
  const next = await fetchFromPage(page, /<([^>]+)>/.exec(first.headers!["link"]!)![1]!, { headers: { "X-API-Key": key } });
  expect(JSON.parse(next.body!)).toEqual([expect.objectContaining({ name: "Second" })]);
  const unchanged = await fetchFromPage(page, `${api.url}/v1/waitlist?limit=1`, { headers: { Authorization: `Bearer ${key}`, "If-None-Match": etag } });
  expect(unchanged.status).toBe(304);
  // Errors are readable too: the app can show the problem and its request id.
  const refused = await fetchFromPage(page, `${api.url}/v1/waitlist`, { headers: { Authorization: "Bearer wl_wrong" } });
  expect(refused.status).toBe(401);
  expect(JSON.parse(refused.body!)).toMatchObject({ code: "unauthenticated", request_id: refused.headers!["request-id"] });
});

test("never with credentials: a fetch that includes them is refused by the browser", async ({ page }) => {
  await page.goto(`${allowedOrigin}/`);
  const outcome = await fetchFromPage(page, `${api.url}/v1/waitlist`, { headers: { Authorization: `Bearer ${key}` }, credentials: "include" });
  expect(outcome.ok).toBe(false);
  expect(outcome.error).toContain("Failed to fetch");
  const preflight = await fetch(`${api.url}/v1/waitlist`, {
    method: "OPTIONS",
    headers: { Origin: allowedOrigin, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
  });
  expect(preflight.status).toBe(204);
  expect(Object.fromEntries(preflight.headers)).toMatchObject({
    "access-control-allow-origin": allowedOrigin,
    "access-control-allow-methods": "GET, HEAD",
    "access-control-allow-headers": "Authorization, X-API-Key, If-None-Match",
    "access-control-max-age": "600",
    vary: "Origin",
    allow: "GET, HEAD, OPTIONS",
  });
  expect(preflight.headers.has("access-control-allow-credentials")).toBe(false);
});

test("another origin is refused, but reads the public openapi.json", async ({ page }) => {
  await page.goto(`${otherOrigin}/`);
  const refused = await fetchFromPage(page, `${api.url}/v1/waitlist`, { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.ok).toBe(false);
  expect(refused.error).toContain("Failed to fetch");
  const document = await fetchFromPage(page, `${api.url}/v1/openapi.json`);
  expect(document.ok, document.error).toBe(true);
  expect(JSON.parse(document.body!)).toMatchObject({ openapi: "3.1.1" });
  const direct = await fetch(`${api.url}/v1/openapi.json`, { headers: { Origin: otherOrigin } });
  expect(direct.headers.get("access-control-allow-origin")).toBe("*");
  const refusedDirect = await fetch(`${api.url}/v1/waitlist`, { headers: { Origin: otherOrigin, Authorization: `Bearer ${key}` } });
  expect(refusedDirect.status).toBe(200);
  expect(refusedDirect.headers.has("access-control-allow-origin")).toBe(false);
  expect(refusedDirect.headers.get("vary")).toContain("Origin");
});

test("with CORS off (the default), no origin may call the API; openapi.json stays readable", async ({ page, baseURL }) => {
  await page.goto(`${allowedOrigin}/`);
  const refused = await fetchFromPage(page, `${baseURL}/v1/waitlist`, { headers: { Authorization: `Bearer ${key}` } });
  expect(refused.ok).toBe(false);
  const document = await fetchFromPage(page, `${baseURL}/v1/openapi.json`);
  expect(document.ok, document.error).toBe(true);
  expect(document.status).toBe(200);
  const preflight = await fetch(`${baseURL}/v1/waitlist`, { method: "OPTIONS", headers: { Origin: allowedOrigin, "Access-Control-Request-Method": "GET" } });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.has("access-control-allow-origin")).toBe(false);
});
