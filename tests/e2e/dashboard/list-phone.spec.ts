import { expect, test, type Locator, type Page } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { createFixtureWaitlist, signIn } from "../support/support";

// The waitlist page on a 390×844 phone: the first signups in the first screen, one card per signup,
// the filters in a drawer behind "Filters (n)", a header on one line, nothing wider than the screen.

const PHONE = { width: 390, height: 844 };

let waitlist: Waitlist;
test.beforeAll(async () => {
  waitlist = (await createFixtureWaitlist(137)).waitlist;
});

test.beforeEach(async ({ context, page }) => {
  await signIn(context, ["waitlist:admin"]);
  await page.setViewportSize(PHONE);
});

async function settled(page: Page) {
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "no sideways scrolling").toBeLessThanOrEqual(0);
}

for (const [name, query] of [
  ["without filters", ""],
  ["with filters", "?verified=true&referral=false&input.Role=Engineer&created_since=2020-01-01"],
] as const) {
  test(`${name}, the first signups show in the first screen without scrolling`, async ({ page }) => {
    await page.goto(`/waitlists/${waitlist.id}${query}`);
    await settled(page);
    const rows = page.locator("tbody tr");
    for (const row of [0, 1]) {
      const card = await box(rows.nth(row));
      expect(card.y + card.height, `signup ${row + 1} ends inside the first screen (${Math.round(card.y + card.height)} px)`).toBeLessThanOrEqual(PHONE.height);
      expect(card.x + card.width, `signup ${row + 1} fits the width`).toBeLessThanOrEqual(PHONE.width);
    }
    const [first, second] = [await box(rows.nth(0)), await box(rows.nth(1))];
    console.log(`phone ${name}: the first signup starts at ${Math.round(first.y)} px, the second ends at ${Math.round(second.y + second.height)} px of ${PHONE.height}`);
    await expectNoSidewaysScroll(page);
    await expect(page.getByRole("complementary", { name: "Filters" })).toBeHidden();
  });
}

test("each signup is a card: its email links to its page, its flags in words, its date", async ({ page }) => {
  await page.goto(`/waitlists/${waitlist.id}?sort=created_at&dir=asc`);
  await settled(page);
  const card = page.locator("tbody tr").first();
  const email = card.getByRole("link");
  await expect(email).toHaveAttribute("href", /^\/waitlists\/[^/]+\/signups\/.+/);
  // The fixture's first signup: not verified, a referral.
  await expect(card.getByText("Unverified", { exact: true })).toBeVisible();
  await expect(card.getByText("Referral", { exact: true })).toBeVisible();
  await expect(card.locator("time")).toBeVisible();
  const [emailBox, timeBox, cardBox] = [await box(email), await box(card.locator("time")), await box(card)];
  expect(timeBox.y, "the date is under the email").toBeGreaterThan(emailBox.y);
  expect(cardBox.width).toBeLessThanOrEqual(PHONE.width);
  // Only the sortable columns show a header, as a line of sort links.
  await expect(page.getByRole("link", { name: /^Email/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Signed up/ })).toBeVisible();
});

test("the filters open in a drawer behind 'Filters (n)': a labelled modal dialog, Tab stays inside, Escape closes it", async ({ page }) => {
  await page.goto(`/waitlists/${waitlist.id}?verified=true&input.Role=Engineer`);
  await settled(page);
  const button = page.getByRole("button", { name: "Filters (2)" });
  await expect(button).toBeVisible();
  await expect(page.getByRole("group", { name: "Verified" })).toBeHidden();
  await button.click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await expect(drawer).toBeVisible();
  await expect(drawer).toHaveAttribute("aria-modal", "true");
  await expect(drawer.getByRole("button", { name: "Close" })).toBeFocused();
  await expect(drawer.getByRole("group", { name: "Verified" })).toBeVisible();
  await expectNoSidewaysScroll(page);
  // Shift+Tab from the first control wraps to the last, Tab from the last back to the first.
  await page.keyboard.press("Shift+Tab");
  await expect(drawer.getByRole("button", { name: "Show signups" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(drawer.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(button).toBeFocused();

  // A pick inside the drawer filters the list and updates the count; the drawer stays open for more.
  await button.click();
  await drawer.getByRole("group", { name: "Referral" }).getByRole("link", { name: /^No/ }).click();
  await expect(page).toHaveURL(/referral=false/);
  await expect(page.getByRole("button", { name: "Filters (3)" })).toBeAttached();
  await drawer.getByRole("button", { name: "Show signups" }).click();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole("button", { name: "Filters (3)" })).toBeVisible();
});

test("the app header is one line on a phone", async ({ page }) => {
  await page.goto(`/waitlists/${waitlist.id}`);
  const header = page.locator("body > header, header").first();
  const height = (await box(header)).height;
  expect(height, `the header is ${height} px high`).toBeLessThanOrEqual(60);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Find" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeInViewport();
  await expectNoSidewaysScroll(page);
});
