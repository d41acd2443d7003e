import AxeBuilder from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createFixtureWaitlist, createKey, signIn } from "../support/support";

// Every page, in light and dark mode: no serious or critical axe violation, nothing wider than a
// 375 px phone, and a screenshot at desktop and phone width (written to the test's output folder,
// and to UI_SHOTS_DIR when it is set, for people to look at).

async function expectNoSeriousViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(
    serious.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`),
    label,
  ).toEqual([]);
}

async function screenshot(page: Page, name: string, outputPath: (name: string) => string) {
  await page.screenshot({ path: outputPath(`${name}.png`), fullPage: true });
  const shots = process.env.UI_SHOTS_DIR;
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  }
}

/** The page has hydrated and nothing is loading any more. */
async function settled(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
}

const pages: { name: string; path: () => string; signedIn: boolean; admin?: boolean; open?: (page: Page) => Promise<void> }[] = [];
let waitlistPath = "";
let signupPath = "";
test.beforeAll(() => {
  const { waitlist } = createFixtureWaitlist(60);
  waitlistPath = `/waitlists/${waitlist.id}`;
  signupPath = `${waitlistPath}/signups/${listSignupRows({ scope: { waitlistId: waitlist.id }, offset: 1, limit: 1 })[0]!.id}`;
});
pages.push(
  { name: "signin", path: () => "/signin?reason=revoked&next=/", signedIn: false },
  { name: "overview", path: () => "/", signedIn: true },
  { name: "waitlist", path: () => `${waitlistPath}?verified=true`, signedIn: true },
  {
    name: "waitlist-details",
    path: () => `${waitlistPath}?sort=created_at&dir=asc`,
    signedIn: true,
    open: async (page) => {
      await page.locator("tbody tr").nth(1).getByRole("link").click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  {
    name: "waitlist-empty",
    path: () => `${waitlistPath}?email_contains=nothing-matches-this`,
    signedIn: true,
    open: async (page) => {
      await page.getByText("Same data from the API").click();
    },
  },
  { name: "waitlist-segments", path: () => `${waitlistPath}?created_since=2020-01-01&input.Role=Engineer&facet=Company&facet_q=1`, signedIn: true },
  { name: "signup", path: () => signupPath, signedIn: true },
  { name: "finder", path: () => "/find?email=ann.", signedIn: true },
  { name: "not-found", path: () => "/waitlists/00000000-0000-4000-8000-000000000000", signedIn: true },
  { name: "keys", path: () => "/keys", signedIn: true, admin: true },
  { name: "key-revoke", path: () => `/keys/${createKey().id}/revoke`, signedIn: true, admin: true },
  { name: "audit", path: () => "/audit", signedIn: true, admin: true },
  { name: "import", path: () => `${waitlistPath}/import`, signedIn: true, admin: true },
  { name: "admin-page-for-a-viewer", path: () => "/keys", signedIn: true },
);

for (const scheme of ["light", "dark"] as const) {
  for (const entry of pages) {
    test(`${entry.name} in ${scheme} mode is accessible and fits a phone`, async ({ page, context }, testInfo) => {
      if (entry.signedIn) await signIn(context, entry.admin ? ["waitlist:admin"] : undefined);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(entry.path());
      await settled(page);
      await entry.open?.(page);
      await expectNoSeriousViolations(page, `${entry.name} ${scheme}`);
      await screenshot(page, `${entry.name}-${scheme}-1280`, (name) => testInfo.outputPath(name));

      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(entry.path());
      await settled(page);
      await entry.open?.(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "the page itself must not scroll sideways at 375 px").toBeLessThanOrEqual(0);
      await expectNoSeriousViolations(page, `${entry.name} ${scheme} 375px`);
      await screenshot(page, `${entry.name}-${scheme}-375`, (name) => testInfo.outputPath(name));
    });
  }
}

test("the signups table can be worked with the keyboard alone, with a visible focus ring", async ({ page, context }) => {
  await signIn(context);
  await page.goto(`${waitlistPath}?sort=created_at&dir=asc`);
  await page.getByRole("group", { name: "Verified" }).getByRole("link", { name: /^Any/ }).focus();
  // The group is one tab stop (a toolbar): the arrow keys move inside it.
  await page.keyboard.press("ArrowDown");
  const yes = page.getByRole("group", { name: "Verified" }).getByRole("link", { name: /^Yes/ });
  await expect(yes).toBeFocused();
  const outline = await yes.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).toBe("solid");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${waitlistPath}?verified=true&dir=asc`);
  const firstEmail = page.locator("tbody tr").first().getByRole("link");
  await firstEmail.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("dialog").getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
});
