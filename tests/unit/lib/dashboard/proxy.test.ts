import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashSecret } from "@/lib/domain/keys/queries";
import { SESSION_ID_HEADER } from "@/lib/dashboard/budget";
import { dashboardProxy } from "@/lib/dashboard/proxy";
import { env } from "@/lib/core/env";
import { isPublicPath, SECURE_SESSION_COOKIE, SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { tempDatabase } from "@/tests/support/temp-db";

// The budget asks the app's database (getDb) where limits are counted: point it at a fresh file first.
const temp = tempDatabase();
process.env.DATABASE_PATH = temp.path;
afterAll(() => temp.close());

// As behind one reverse proxy: its X-Forwarded-Proto is believed (env() reads this on first use).
beforeAll(() => {
  vi.stubEnv("TRUSTED_PROXY_HOPS", "1");
});

const overHttps = { "x-forwarded-proto": "https" };

describe("dashboardProxy", () => {
  it("sends a request without a session cookie to sign-in, with its path and query", async () => {
    const response = await dashboardProxy(new NextRequest("http://127.0.0.1:3000/waitlists/abc?verified=true&_rsc=xyz"));
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location")!);
    expect(location.pathname + location.search).toBe("/signin?next=%2Fwaitlists%2Fabc%3Fverified%3Dtrue");
  });

  it("lets a request with a cookie through and hands the path to the pages", async () => {
    const response = await dashboardProxy(new NextRequest("http://127.0.0.1:3000/?sort=total", { headers: { cookie: "wl_session=t" } }));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-middleware-request-x-dashboard-path")).toBe("/?sort=total");
  });

  it("reads the __Host- cookie over HTTPS and the plain one over HTTP", async () => {
    const request = (cookie: string, headers: Record<string, string> = {}) => new NextRequest("http://127.0.0.1:3000/", { headers: { ...headers, cookie } });
    expect((await dashboardProxy(request(`${SECURE_SESSION_COOKIE}=t`, overHttps))).status).toBe(200);
    expect((await dashboardProxy(request(`${SESSION_COOKIE}=t`, overHttps))).status).toBe(307);
    expect((await dashboardProxy(request(`${SECURE_SESSION_COOKIE}=t`))).status).toBe(307);
  });

  it("leaves the API, its docs, sign-in and the public files alone", async () => {
    for (const path of ["/v1", "/v1/waitlist", "/docs/api", "/signin", "/signin?next=/", "/robots.txt", "/icon.svg"]) {
      expect((await dashboardProxy(new NextRequest(`http://127.0.0.1:3000${path}`))).status, path).toBe(200);
    }
    expect(isPublicPath("/v1x")).toBe(false);
    expect(isPublicPath("/docsy")).toBe(false);
    expect(isPublicPath("/signin-elsewhere")).toBe(false);
    expect(isPublicPath("/robots.txt.bak")).toBe(false);
  });

  it("counts each session's requests and answers 429 with a page and Retry-After past DASHBOARD_REQUESTS_PER_MINUTE", async () => {
    const limit = env().DASHBOARD_REQUESTS_PER_MINUTE;
    const request = (token: string, path = "/waitlists/abc") => dashboardProxy(new NextRequest(`http://127.0.0.1:3000${path}`, { headers: { cookie: `wl_session=${token}` } }));
    for (let index = 0; index < limit; index++) expect((await request("budget-a", index % 2 ? "/" : "/waitlists/abc/export")).status).toBe(200);
    const refused = await request("budget-a");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await refused.text()).toContain(`more than ${limit} dashboard requests in a minute`);
    // Another session, and the public paths of this one, are not affected.
    expect((await request("budget-b")).status).toBe(200);
    expect((await request("budget-a", "/docs/api")).status).toBe(200);
    expect((await request("budget-a", "/signin")).status).toBe(200);
  });

  it("hands the pages the session's id (the sessions table's token hash), never the token", async () => {
    const response = await dashboardProxy(new NextRequest("http://127.0.0.1:3000/", { headers: { cookie: "wl_session=secret-token", [SESSION_ID_HEADER]: "forged" } }));
    expect(response.headers.get(`x-middleware-request-${SESSION_ID_HEADER}`)).toBe(hashSecret("secret-token"));
  });
});
