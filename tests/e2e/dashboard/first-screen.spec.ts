import { expect, test, type Locator, type Page } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { createFixtureWaitlist, signIn } from "../support/support";

// The waitlist page at 1440×900: the filters, the figures, the chart and the first rows of the
// table all fit the first screen, with and without filters (before, one row was visible).

const VIEWPORT = { width: 1440, height: 900 };
const FIRST_ROWS = 5;

let waitlist: Waitlist;
test.beforeAll(async () => {
  waitlist = (await createFixtureWaitlist(137)).waitlist;
});

test.beforeEach(async ({ context, page }) => {
  await signIn(context);
  await page.setViewportSize(VIEWPORT);
});

async function expectInFirstScreen(locator: Locator, label: string) {
  const box = await locator.boundingBox();
  expect(box, label).not.toBeNull();
  expect(box!.y, `${label} starts inside the first screen`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${label} ends inside the first screen`).toBeLessThanOrEqual(VIEWPORT.height);
  expect(box!.x + box!.width, `${label} fits the width`).toBeLessThanOrEqual(VIEWPORT.width);
}

async function expectSignupsInFirstScreen(page: Page) {
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
  await expectInFirstScreen(page.getByRole("group", { name: "Verified" }), "the Verified filter");
  await expectInFirstScreen(page.getByRole("group", { name: "Referral" }), "the Referral filter");
  await expectInFirstScreen(page.getByLabel("From", { exact: true }), "the From date");
  await expectInFirstScreen(page.getByLabel("To", { exact: true }), "the To date");
  await expectInFirstScreen(page.getByRole("searchbox", { name: "Search by email" }), "the search");
  await expectInFirstScreen(page.getByTestId("figure-total"), "the total");
  await expectInFirstScreen(page.getByRole("img", { name: /^Bar chart:/ }), "the chart");
  await expectInFirstScreen(page.locator("thead"), "the table header");
  for (let row = 0; row < FIRST_ROWS; row += 1) await expectInFirstScreen(page.locator("tbody tr").nth(row), `table row ${row + 1}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "no sideways scrolling").toBeLessThanOrEqual(0);
}

test("the first screen shows the filters, the figures, the chart and the first rows of the table", async ({ page }, testInfo) => {
  await page.goto(`/waitlists/${waitlist.id}`);
  await expectSignupsInFirstScreen(page);
  await page.screenshot({ path: testInfo.outputPath("first-screen-1440x900.png") });
});

test("with every kind of filter active, the chips and the first rows still fit the first screen", async ({ page }, testInfo) => {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.goto(`/waitlists/${waitlist.id}?verified=true&referral=false&email_contains=example&created_since=2020-01-01&created_until=${tomorrow}&input.Role=Engineer`);
  await expect(page.getByRole("list", { name: "Active filters" }).getByRole("listitem")).toHaveCount(5);
  await expectSignupsInFirstScreen(page);
  await expectInFirstScreen(page.getByRole("list", { name: "Active filters" }), "the active filters");
  await page.screenshot({ path: testInfo.outputPath("first-screen-filtered-1440x900.png") });
});

test("figures say what they count: no share of a flag that is itself a filter", async ({ page }) => {
  await page.goto(`/waitlists/${waitlist.id}?verified=true&referral=false`);
  await expect(page.getByText("Matching signups")).toBeVisible();
  await expect(page.getByTestId("figure-verified-detail")).toHaveText("all: filtered to verified");
  await expect(page.getByTestId("figure-referral")).toHaveText("0");
  await expect(page.getByTestId("figure-referral-detail")).toHaveText("none: filtered to not referrals");
  await page.goto(`/waitlists/${waitlist.id}?referral=false`);
  await expect(page.getByTestId("figure-verified-detail")).toHaveText(/^\d+(\.\d)?% of them$/);
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.getByTestId("figure-total-detail")).toHaveText("all of the list");
});
