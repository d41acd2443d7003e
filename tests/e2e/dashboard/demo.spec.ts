import { expect, test, type Page } from "@playwright/test";
import { openDatabase } from "@/db/client";
import { prepareDemo } from "@/lib/cli/demo-banner";
import { startupSummary } from "@/lib/core/startup-summary";
import { DEMO_WAITLISTS } from "@/lib/seed/seed-demo";
import { freshDatabasePath, startTestServer, type TestServer } from "../support/test-server";

// What `npm run demo` prints, on a database of its own (lib/cli/demo-banner, the path the demo runs after
// its build): each printed key signs in to the dashboard with the role its label says.

let server: TestServer;
let banner: Awaited<ReturnType<typeof prepareDemo>>;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const databasePath = freshDatabasePath("demo");
  const db = openDatabase(databasePath);
  const summary = startupSummary({ SMTP_URL: undefined, MAIL_FROM: "Waitlist <waitlist@localhost>", PUBLIC_URL: "http://localhost:3000", DATABASE_PATH: databasePath }, {});
  banner = await prepareDemo(db, { databasePath, url: "http://localhost:3000", summary });
  db.$client.close();
  server = await startTestServer({ portOffset: 60, name: "demo", databasePath, env: { REQUEST_LOG: "off" } });
});
test.afterAll(() => server?.stop());

/** The key on the banner's line that starts with `label`. */
function keyLabelled(text: string, label: string): string {
  const match = new RegExp(`^  ${label}:\\s+(wl_\\S+)$`, "m").exec(text);
  expect(match, `a line "${label}: wl_…" in\n${text}`).not.toBeNull();
  return match![1]!;
}

async function signInWith(page: Page, key: string) {
  await page.goto(`${server.url}/signin`);
  await expect(page.getByLabel("API key")).toBeFocused();
  await page.getByLabel("API key").fill(key);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Waitlists" })).toBeVisible();
  await expect(page.getByRole("link", { name: DEMO_WAITLISTS[0].name })).toBeVisible();
}

test("the banner labels an admin key and a view key, and prints the same keys again when the server is ready", () => {
  const admin = keyLabelled(banner.starting, "Admin key");
  const view = keyLabelled(banner.starting, "View key");
  expect(admin).not.toBe(view);
  expect(keyLabelled(banner.ready, "Admin key")).toBe(admin);
  expect(keyLabelled(banner.ready, "View key")).toBe(view);
  expect(banner.starting).toContain("66,000 signups");
  expect(banner.ready.trimEnd().split("\n").at(-1)).toBe("  Ready at http://localhost:3000. Stop the server with Ctrl+C.");
});

test("the admin key signs in as an admin: New waitlist, API keys and Audit log, no View only badge", async ({ page }) => {
  await signInWith(page, keyLabelled(banner.starting, "Admin key"));
  await expect(page.getByText("New waitlist", { exact: true })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" })).toBeVisible();
  await expect(page.getByText("View only")).toHaveCount(0);
  expect((await page.goto(`${server.url}/keys`))?.status()).toBe(200);
});

test("the view key signs in view-only: the badge says so and how to get an admin key, and no write control shows", async ({ page }) => {
  await signInWith(page, keyLabelled(banner.starting, "View key"));
  await expect(page.getByText("New waitlist", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "API keys" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  const badge = page.getByRole("banner").getByText("View only", { exact: true });
  await expect(badge).toBeVisible();
  await badge.click();
  await expect(page.getByText("reads everything and changes nothing")).toBeVisible();
  await expect(page.getByText("keys create --name you --role waitlist:admin")).toBeVisible();
  await expect(page.getByRole("link", { name: "About roles" })).toHaveAttribute("href", "/docs/dashboard#admins-and-dashboard-writes");
  expect((await page.goto(`${server.url}/keys`))?.status()).toBe(404);
});
