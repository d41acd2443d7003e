import { expect, test, type BrowserContext } from "@playwright/test";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { startTestServer, type TestServer } from "../support/test-server";

// What one dashboard session may cost, on a server of its own with a budget of BUDGET requests per
// minute: the 429 page past the budget, at most two CSV exports at once per session (a slot is
// freed when an export finishes or its client goes away), and no numbered page past 10,000 rows.

const BUDGET = 20;
// Large enough (about 20 MB of CSV) that an export the client does not read cannot finish into the
// socket buffers: it stays running until the test reads it or hangs up. The exports here ask for
// no compression, which would otherwise shrink them enough to fit.
const SIGNUPS = 150_000;

let server: TestServer;
let waitlistId: string;

test.beforeAll(async () => {
  server = await startTestServer({ portOffset: 6, name: "cost-bounds", env: { WEB_CONCURRENCY: "1", DASHBOARD_REQUESTS_PER_MINUTE: String(BUDGET), REQUEST_LOG: "off" } });
  const db = server.db();
  waitlistId = (await createWaitlist({ name: "Cost bounds", website: "https://example.com" }, db)).id;
  const insert = db.$client.prepare("INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const start = Date.UTC(2026, 0, 1);
  db.$client.transaction(() => {
    for (let i = 0; i < SIGNUPS; i++) {
      const inputs = JSON.stringify([{ label: "company", value: `Company ${i} Incorporated` }, { label: "role", value: "Engineer" }]);
      insert.run(waitlistId, `user${i}@example.com`, i % 2, i % 3 === 0 ? 1 : 0, inputs, start + i * 1000);
    }
  })();
});

test.afterAll(async () => {
  await server?.stop();
});

/** A new session's cookie header (each test gets its own budget). */
async function newSession(): Promise<{ token: string; cookie: string }> {
  const key = await createApiKey({ name: "cost bounds", roles: ["waitlist:view"] }, server.db());
  const { token } = await createSession(key.id, server.db());
  return { token, cookie: `${SESSION_COOKIE}=${token}` };
}

async function signInBrowser(context: BrowserContext, token: string) {
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
}

/** Starts an export and returns once its headers are in, without reading the body. */
async function startExport(cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/waitlists/${waitlistId}/export`, { headers: { cookie, "accept-encoding": "identity" }, signal: controller.signal });
  return { response, abort: () => controller.abort() };
}

test("past DASHBOARD_REQUESTS_PER_MINUTE a session gets a 429 page with Retry-After; other sessions are served", async ({ page, context }) => {
  const { token, cookie } = await newSession();
  for (let index = 0; index < BUDGET; index++) {
    const response = await fetch(`${server.url}/`, { headers: { cookie }, redirect: "manual" });
    expect(response.status, `request ${index + 1}`).toBe(200);
    await response.arrayBuffer();
  }
  await signInBrowser(context, token);
  const refused = await page.goto(`${server.url}/waitlists/${waitlistId}`);
  expect(refused!.status()).toBe(429);
  const retryAfter = Number(refused!.headers()["retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  await expect(page.getByRole("heading", { name: "Too many requests" })).toBeVisible();
  await expect(page.getByText(`This session made more than ${BUDGET} dashboard requests in a minute`)).toBeVisible();
  await expect(page.getByRole("link", { name: "Try again" })).toBeVisible();

  // The export counts against the same budget.
  const exportRefused = await fetch(`${server.url}/waitlists/${waitlistId}/export`, { headers: { cookie } });
  expect(exportRefused.status).toBe(429);
  await exportRefused.arrayBuffer();
  // Another session, and the API docs of this one, are served.
  const other = await fetch(`${server.url}/`, { headers: { cookie: (await newSession()).cookie }, redirect: "manual" });
  expect(other.status).toBe(200);
  await other.arrayBuffer();
  expect((await page.goto(`${server.url}/docs/api`))!.status()).toBe(200);
});

test("a session runs at most two CSV exports at once; a finished or an aborted export frees its slot", async () => {
  const { cookie } = await newSession();
  // HEAD sends no body and holds no slot.
  for (let index = 0; index < 3; index++) {
    const head = await fetch(`${server.url}/waitlists/${waitlistId}/export`, { method: "HEAD", headers: { cookie } });
    expect(head.status).toBe(200);
  }
  const first = await startExport(cookie);
  const second = await startExport(cookie);
  expect([first.response.status, second.response.status]).toEqual([200, 200]);

  const third = await fetch(`${server.url}/waitlists/${waitlistId}/export`, { headers: { cookie } });
  expect(third.status).toBe(429);
  expect(third.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(await third.text()).toBe(
    "Too many exports at once: this session already has 2 CSV exports running. Wait until one has finished (or cancel it), then try again.\n",
  );
  // Other sessions have slots of their own.
  const elsewhere = await startExport((await newSession()).cookie);
  expect(elsewhere.response.status).toBe(200);
  elsewhere.abort();

  // A finished export frees its slot (it is released before the last bytes are sent).
  const csv = await first.response.text();
  expect(csv.split("\r\n").filter(Boolean)).toHaveLength(SIGNUPS + 1);
  const fourth = await startExport(cookie);
  expect(fourth.response.status).toBe(200);
  expect((await fetch(`${server.url}/waitlists/${waitlistId}/export`, { headers: { cookie } })).status).toBe(429);

  // So does an export whose client hangs up in the middle.
  const reader = second.response.body!.getReader();
  expect((await reader.read()).done).toBe(false);
  second.abort();
  let fifth: Awaited<ReturnType<typeof startExport>> | undefined;
  await expect
    .poll(async () => {
      const attempt = await startExport(cookie);
      if (attempt.response.status === 200) fifth = attempt;
      else await attempt.response.arrayBuffer();
      return attempt.response.status;
    })
    .toBe(200);
  expect((await fetch(`${server.url}/waitlists/${waitlistId}/export`, { headers: { cookie } })).status).toBe(429);
  fourth.abort();
  fifth!.abort();
});

test("a deep page (page=999999) shows no rows and says how to reach signups past the first 10,000; the pagination stops at page 400", async ({ page, context }) => {
  await signInBrowser(context, (await newSession()).token);
  await page.goto(`${server.url}/waitlists/${waitlistId}?email_contains=user&sort=email&page=999999`);
  const beyond = page.getByTestId("beyond-reach");
  await expect(beyond).toContainText("Only the first 10,000 signups of a list can be paged through.");
  await expect(beyond).toContainText("narrow the filters or the search, or reverse the sort. The CSV export and the API return every signup.");
  await expect(page.locator("table tbody tr")).toHaveCount(0);

  await beyond.getByRole("link", { name: "Go to the first page" }).click();
  await expect(page).toHaveURL(`${server.url}/waitlists/${waitlistId}?email_contains=user&sort=email`);
  const pagination = page.getByRole("navigation", { name: "Pagination" });
  // q=user matches all 150,000: a search counts up to 10,000 ("10,000+"), so the pages are "400+".
  await expect(pagination).toContainText("Page 1 of 400+ (pages after 400 are not shown: narrow the filters or the search, or reverse the sort)");
  await pagination.getByRole("link", { name: "Page 400 (the last that is shown)" }).click();
  await expect(page).toHaveURL(`${server.url}/waitlists/${waitlistId}?email_contains=user&sort=email&page=400`);
  await expect(page.locator("table tbody tr")).toHaveCount(25);
  await expect(page.getByTestId("showing")).toHaveText("Showing 9,976–10,000 of at least 10,000");
  await expect(pagination.getByText("Next page (not available)")).toBeAttached();
});
