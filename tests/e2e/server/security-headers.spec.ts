import { connect } from "node:net";
import { expect, test, type APIResponse, type Page } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { bearer, insertSignups, makeSignups } from "../support/api-fixtures";
import { signIn } from "../support/support";

/** A Cookie header for a fresh dashboard session. */
async function sessionCookie() {
  const key = await createApiKey({ name: "headers session", roles: ["waitlist:view"] });
  return { Cookie: `${SESSION_COOKIE}=${(await createSession(key.id)).token}` };
}

// Security headers on pages, the API, static files and answers Next.js never sees; the page CSP
// in Chromium: Next.js's scripts run (the page hydrates) and nothing else does.

const STATIC_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
};

function expectStaticHeaders(headers: Record<string, string>, what: string) {
  for (const [name, value] of Object.entries(STATIC_HEADERS)) expect(headers[name], `${name} on ${what}`).toBe(value);
  expect(headers["permissions-policy"], what).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
  expect(headers["x-powered-by"], what).toBeUndefined();
}

/** The directives of a CSP header. */
function directives(policy: string | undefined): Map<string, string[]> {
  expect(policy).toBeTruthy();
  return new Map(policy!.split(";").map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

function expectPageCsp(response: APIResponse, what: string): string {
  const csp = directives(response.headers()["content-security-policy"]);
  const scripts = csp.get("script-src")!;
  const nonce = scripts.find((source) => source.startsWith("'nonce-"));
  expect(nonce, `nonce on ${what}`).toMatch(/^'nonce-[A-Za-z0-9+/=]{20,}'$/);
  expect(scripts).toContain("'strict-dynamic'");
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  expect(csp.get("object-src")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'none'"]);
  expect(csp.get("form-action")).toEqual(["'self'"]);
  return nonce!;
}

function expectNoContentCsp(response: APIResponse, what: string) {
  const csp = directives(response.headers()["content-security-policy"]);
  expect(csp.get("default-src"), what).toEqual(["'none'"]);
  expect(csp.get("frame-ancestors"), what).toEqual(["'none'"]);
}

test("pages carry the static headers and a CSP with a fresh nonce per request", async ({ request }) => {
  const cookie = await sessionCookie();
  const waitlist = await createWaitlist({ name: "Headers", website: "https://example.com" });
  const pages: [string, Record<string, string>][] = [
    ["/signin", {}],
    ["/docs/api", {}],
    ["/", cookie],
    [`/waitlists/${waitlist.id}?verified=true`, cookie],
    ["/no-such-page", cookie],
  ];
  for (const [path, headers] of pages) {
    const first = await request.get(path, { headers, maxRedirects: 0 });
    const second = await request.get(path, { headers, maxRedirects: 0 });
    expect(first.status(), path).toBeLessThan(500);
    expectStaticHeaders(first.headers(), path);
    const nonce = expectPageCsp(first, path);
    expect(expectPageCsp(second, path), `${path}: a new nonce each time`).not.toBe(nonce);
    // Next.js put the nonce on its scripts: every <script> of the page carries it.
    const html = await first.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce.slice(7, -1)}"`);
  }
  // The redirect to sign-in and the CSV export carry the headers too.
  const redirect = await request.get("/", { maxRedirects: 0 });
  expect(redirect.status()).toBe(307);
  expectStaticHeaders(redirect.headers(), "redirect");
  const csv = await request.get(`/waitlists/${waitlist.id}/export`, { headers: cookie, maxRedirects: 0 });
  expect(csv.status()).toBe(200);
  expectStaticHeaders(csv.headers(), "export");
  expect(csv.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
});

test("the API, its document and static files carry the static headers and a no-content CSP", async ({ request }) => {
  const key = (await createApiKey({ name: "headers", roles: ["waitlist:view"] })).key;
  const html = await (await request.get("/")).text();
  const asset = /\/_next\/static\/[^"]+\.js/.exec(html)![0];
  const cases: [string, Record<string, string>][] = [
    ["/v1/waitlist", bearer(key)],
    ["/v1/waitlist", {}],
    ["/v1/openapi.json", {}],
    ["/v1/nowhere", {}],
    [asset, {}],
  ];
  for (const [path, headers] of cases) {
    const response = await request.get(path, { headers });
    expectStaticHeaders(response.headers(), path);
    expectNoContentCsp(response, path);
  }
  const post = await request.post("/v1/waitlist");
  expect(post.status()).toBe(405);
  expectStaticHeaders(post.headers(), "405");
});

test("requests Node.js cannot parse get a bare 400/431 with the security headers", async () => {
  const url = new URL(process.env.E2E_BASE_URL!);
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.end(text));
      let answer = "";
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => (answer += chunk));
      socket.on("end", () => resolve(answer));
      socket.on("error", reject);
    });
  const cases: [string, number][] = [
    ["BREW / HTTP/1.1\r\nHost: x\r\n\r\n", 400],
    [`GET / HTTP/1.1\r\nHost: x\r\nX-Huge: ${"a".repeat(40_000)}\r\n\r\n`, 431],
  ];
  for (const [request, status] of cases) {
    const answer = await raw(request);
    expect(answer.split("\r\n")[0]).toBe(`HTTP/1.1 ${status} ${status === 400 ? "Bad Request" : "Request Header Fields Too Large"}`);
    const headers = Object.fromEntries(answer.split("\r\n\r\n")[0]!.split("\r\n").slice(1).map((line) => [line.split(":")[0]!.toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    expectStaticHeaders(headers, request.slice(0, 10));
    expect(headers["content-security-policy"]).toContain("default-src 'none'");
  }
});

/** Collects CSP violations (reported in the page) and console errors. */
async function watchPage(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    const store = window as unknown as { __cspViolations: string[] };
    store.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => store.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return {
    problems,
    violations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
  };
}

test("in Chromium, pages hydrate under the CSP with no violation, and injected inline script is blocked", async ({ page, context }) => {
  const waitlist = await createWaitlist({ name: `<img src=x onerror="window.__pwned=1"> CSP`, website: "https://example.com" });
  const seeds = makeSignups(40, `csp${Date.now()}`, Date.now() - 20 * 86_400_000);
  await insertSignups(waitlist.id, seeds);
  const hydrated = () => page.evaluate(() => Object.keys(document.querySelector("h1") ?? {}).some((name) => name.startsWith("__reactFiber")));

  for (const path of ["/signin", "/docs/api"]) {
    const watch = await watchPage(page);
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    // React hydrated the server HTML: its fiber is attached to the page's heading.
    await expect.poll(hydrated, { message: `${path} hydrated` }).toBe(true);
    expect(await watch.violations(), path).toEqual([]);
    expect(watch.problems, path).toEqual([]);
    page.removeAllListeners("console");
    page.removeAllListeners("pageerror");
  }
  // Signed in: the overview and the waitlist page (its chart is drawn in the browser by recharts).
  await signIn(context);
  for (const path of ["/", `/waitlists/${waitlist.id}`]) {
    const watch = await watchPage(page);
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await expect.poll(hydrated, { message: `${path} hydrated` }).toBe(true);
    if (path !== "/") await expect(page.locator(".recharts-surface").first()).toBeVisible();
    expect(await watch.violations(), path).toEqual([]);
    expect(watch.problems, path).toEqual([]);
    page.removeAllListeners("console");
    page.removeAllListeners("pageerror");
  }
  await page.goto("/");
  await expect(page.getByText(waitlist.name)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  // Markup an attacker slipped into the HTML (an inline script and inline event handlers, all
  // without the nonce): the server's CSP makes Chromium refuse to run them.
  await page.route("**/signin", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace("<body", '<body onload="window.__pwned = 3"').replace("</body>", '<script>window.__pwned = 2</script><img src="data:," onerror="window.__pwned = 4"></body>');
    await route.fulfill({ response, body: html });
  });
  await context.clearCookies();
  const watch = await watchPage(page);
  await page.goto("/signin");
  await expect.poll(async () => (await watch.violations()).length).toBeGreaterThanOrEqual(2);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // Next.js's own scripts (with the nonce) still ran.
  await expect.poll(hydrated).toBe(true);
});
