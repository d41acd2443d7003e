import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe";
import { baseURL, signIn } from "../support/support";
import { ENV_DEFAULTS } from "@/lib/core/env";
import { ROLES } from "@/lib/domain/keys/queries";
import { MAX_PAGE_LIMIT } from "@/lib/domain/list-params";
import { MAX_EMAIL_LENGTH } from "@/lib/domain/signups/email-address";
import { refusal, SIGNUP_STATUSES, STATUS_ACTION_NAMES, STATUS_ACTIONS } from "@/lib/domain/signups/status";

// The documentation pages (app/docs): reached from the dashboard's header, each with its heading,
// every link between them resolving (pages and #anchors), and no serious axe violation.

const GUIDE: [path: string, heading: string][] = [
  ["/docs", "Documentation"],
  ["/docs/launch", "Launch your first waitlist in 15 minutes"],
  ["/docs/configuration", "Configuration"],
  ["/docs/dashboard", "The dashboard"],
  ["/docs/cli", "The admin CLI"],
  ["/docs/using-the-api", "Using the API"],
  ["/docs/api", "Waitlist API reference"],
  ["/docs/connect-your-product", "Connect your product"],
  ["/docs/webhooks", "Webhooks and emails"],
  ["/docs/operations", "Operations"],
  ["/docs/production", "Production"],
  ["/docs/contributing", "How it works inside"],
];

/** Every same-origin link on the page, as absolute URLs (without /v1, which needs a key). */
async function internalLinks(page: Page): Promise<string[]> {
  const hrefs = await page.locator("main a[href], nav a[href]").evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  return [...new Set(hrefs.filter((href) => href.startsWith(baseURL) && !new URL(href).pathname.startsWith("/v1")))];
}

test("the dashboard's header links to the docs, and the docs link every page", async ({ page, context }) => {
  await signIn(context);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Docs", exact: true }).click();
  await expect(page).toHaveURL(`${baseURL}/docs`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Documentation");
  const nav = page.getByRole("navigation", { name: "Documentation" });
  for (const [path, heading] of GUIDE) {
    await page.goto("/docs");
    await nav.locator(`a[href="${path}"]`).click();
    await expect(page).toHaveURL(`${baseURL}${path}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  }
});

test("the guide pages are public, like the API reference", async ({ request }) => {
  for (const [path] of GUIDE) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
  }
});

test("every link in the docs resolves: pages answer 200 and #anchors name an element", async ({ page, context }) => {
  await signIn(context);
  const checked = new Map<string, string[]>();
  for (const [path] of GUIDE) {
    await page.goto(path);
    for (const href of await internalLinks(page)) {
      const url = new URL(href);
      const target = `${url.pathname}${url.search}`;
      if (!checked.has(target)) {
        const response = await page.request.get(href, { maxRedirects: 0 });
        expect(response.status(), `${href} (linked from ${path})`).toBe(200);
        const ids = [...(await response.text()).matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]!);
        checked.set(target, ids);
      }
      if (url.hash) expect(checked.get(target), `${href} (linked from ${path})`).toContain(decodeURIComponent(url.hash.slice(1)));
    }
  }
  // The guide's pages link each other, not only through the navigation.
  expect([...checked.keys()]).toEqual(expect.arrayContaining(GUIDE.map(([path]) => path)));
});

// Tables and figures the guide reads from their definitions (the status table, env.ts, the limits).
test("/docs/using-the-api shows the status table, the statuses and the limits as the code defines them", async ({ page }) => {
  await page.goto("/docs/using-the-api");
  const actions = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Event" }) });
  await expect(actions.getByRole("row")).toHaveCount(STATUS_ACTION_NAMES.length + 1);
  for (const action of STATUS_ACTION_NAMES) {
    const { label, from, to, event } = STATUS_ACTIONS[action];
    await expect(actions.getByRole("row").filter({ has: page.getByRole("cell", { name: action, exact: true }) })).toHaveText(`${action}${label}${from}${to}${event}`);
  }
  const main = page.getByRole("main");
  await expect(main).toContainText(`"${refusal("complete", "waiting")}"`);
  await expect(main).toContainText(`in one of these statuses, comma-separated: ${SIGNUP_STATUSES.join(", ")} (status=waiting,invited)`);
  await expect(main).toContainText(`acts on statuses (${STATUS_ACTION_NAMES.join(", ")},`);
  await expect(main).toContainText(`add limit (1–${MAX_PAGE_LIMIT}) for keyset pages`);
  await expect(main).toContainText(`(or one over ${MAX_EMAIL_LENGTH} characters)`);
  for (const role of ROLES) await expect(main).toContainText(role);
});

test("/docs/configuration gives every default of env.ts", async ({ page }) => {
  await page.goto("/docs/configuration");
  for (const [name, fallback] of Object.entries(ENV_DEFAULTS)) {
    const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
    await expect(row).toHaveCount(1);
    const shown = (await row.getByRole("cell").nth(1).textContent()) ?? "";
    expect(shown === String(fallback) || shown.startsWith(`${fallback} (`), `${name}: ${shown}`).toBe(true);
  }
});

test("/docs/operations quotes the limits' defaults of env.ts", async ({ page }) => {
  await page.goto("/docs/operations");
  const limits = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Counted per" }) });
  for (const name of ["JOINS_PER_ADDRESS_PER_HOUR", "JOINS_PER_CLIENT_PER_HOUR", "JOINS_PER_WAITLIST_PER_MINUTE", "EMAILS_PER_ADDRESS_PER_HOUR"] as const) {
    const row = limits.getByRole("row").filter({ has: page.getByRole("cell", { name, exact: true }) });
    await expect(row.getByRole("cell").nth(1), name).toHaveText(ENV_DEFAULTS[name].toLocaleString("en"));
  }
  const main = page.getByRole("main");
  await expect(main).toContainText(`RATE_LIMIT_PER_MINUTE (${ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE}) requests`);
  await expect(main).toContainText(`RateLimit-Policy: "per-key";q=${ENV_DEFAULTS.RATE_LIMIT_PER_MINUTE};w=60`);
  await expect(main).toContainText(`RateLimit-Policy: "auth-failures";q=${ENV_DEFAULTS.AUTH_FAILURES_PER_MINUTE};w=60`);
});

// One test per page and scheme: two axe runs over a long page each (the API reference's take
// 40–60 s on a busy 2-core machine).
for (const scheme of ["light", "dark"] as const) {
  for (const [path] of GUIDE) {
    test(`${path} in ${scheme} mode is accessible and fits a phone`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, `${path} ${scheme}`, { seriousOnly: true });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path}: the page itself must not scroll sideways at 375 px`).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page, `${path} ${scheme} 375px`, { seriousOnly: true });
    });
  }
}
