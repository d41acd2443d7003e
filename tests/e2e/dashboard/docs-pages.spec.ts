import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "../support/axe";
import { baseURL, signIn } from "../support/support";

// The documentation pages (app/docs): reached from the dashboard's header, each with its heading,
// every link between them resolving (pages and #anchors), and no serious axe violation.

const GUIDE: [path: string, heading: string][] = [
  ["/docs", "Documentation"],
  ["/docs/configuration", "Configuration"],
  ["/docs/dashboard", "The dashboard"],
  ["/docs/cli", "The admin CLI"],
  ["/docs/using-the-api", "Using the API"],
  ["/docs/api", "Waitlist API reference"],
  ["/docs/webhooks", "Webhooks and emails"],
  ["/docs/operations", "Operations"],
  ["/docs/production", "Production"],
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

for (const scheme of ["light", "dark"] as const) {
  test(`the docs pages in ${scheme} mode are accessible and fit a phone`, async ({ page }) => {
    // Sixteen axe runs over long pages: 40–60 s on a busy 2-core machine.
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    for (const [path] of GUIDE) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoAxeViolations(page, `${path} ${scheme}`, { seriousOnly: true });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path}: the page itself must not scroll sideways at 375 px`).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page, `${path} ${scheme} 375px`, { seriousOnly: true });
    }
  });
}
