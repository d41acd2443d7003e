import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { CountedKeyboard, focusedIn } from "../support/counted-keyboard";
import { insertSignups, signIn, unique, type FixtureSignup } from "../support/support";

// The waitlist page by keyboard alone: a skip link first, one tab stop per facet group with arrow
// keys inside, a chart whose range the arrow keys set. Every key press is counted.

const DAY_MS = 86_400_000;
const COMPANIES = ["Acme", "Globex", "Initech"];
const ROLES = ["Engineer", "Designer", "Sales"];

/** 30 days, 6 signups a day: every company, role and verified value, half of them at Acme. */
async function keyboardFixture() {
  const waitlist = await createWaitlist({ name: unique("Keyboard list"), website: "https://keyboard.example.com" });
  const now = Date.now();
  const signups: FixtureSignup[] = Array.from({ length: 180 }, (_, index) => ({
    email: `person.${index}.${waitlist.id.slice(0, 6)}@keyboard.example`,
    verified: index % 3 !== 0,
    referral: index % 5 === 0,
    customInputs: [
      { label: "Company", value: index % 2 === 0 ? "Acme" : COMPANIES[1 + (index % 4 === 1 ? 0 : 1)]! },
      { label: "Role", value: index % 7 < 4 ? "Engineer" : ROLES[1 + (index % 2)]! },
    ],
    createdAt: new Date(now - Math.floor(index / 6) * DAY_MS - (index % 6) * 1_000),
  }));
  await insertSignups(waitlist.id, signups);
  return { waitlist, signups };
}


test("verified engineers from Acme last week, exported, by keyboard alone in at most 40 key presses", async ({ page, context }) => {
  const { waitlist, signups } = await keyboardFixture();
  await signIn(context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
  const keys = new CountedKeyboard(page);

  // The first tab stop is the skip link.
  await keys.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to signups" })).toBeFocused();
  await keys.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to filters" })).toBeFocused();
  await keys.press("Enter");

  await keys.tabUntil(focusedIn(page, '[role="toolbar"][aria-labelledby="filter-verified"]'));
  await keys.arrowTo("Yes");
  await keys.press("Enter");
  await expect(page).toHaveURL(/verified=true/);

  const company = page.getByRole("group", { name: "Company" });
  await expect(company.getByRole("link", { name: /^Acme/ })).toBeVisible();
  await keys.tabUntil(focusedIn(page, '[data-testid="input-facet"]:has([title*="Company"]) [role="toolbar"]'));
  await keys.arrowTo("Acme");
  await keys.press("Enter");
  await expect(page).toHaveURL(/input\.Company=Acme/);

  await keys.tabUntil(focusedIn(page, '[data-testid="input-facet"]:has([title*="Role"]) [role="toolbar"]'));
  await keys.arrowTo("Engineer");
  await keys.press("Enter");
  await expect(page).toHaveURL(/input\.Role=Engineer/);

  // The chart: focus puts the cursor on today; Shift+Left six times spans the last 7 days.
  await keys.tabUntil(focusedIn(page, '[aria-roledescription="chart"]'));
  for (let day = 0; day < 6; day += 1) await keys.press("Shift+ArrowLeft");
  await expect(page.getByTestId("chart-cursor")).toContainText("7 days");
  await keys.press("Enter");
  const today = new Date().toISOString().slice(0, 10);
  const weekStart = new Date(Date.now() - 6 * DAY_MS).toISOString().slice(0, 10);
  await expect(page).toHaveURL(new RegExp(`created_since=${weekStart}`));

  await keys.tabUntil(() => page.getByTestId("export-csv").evaluate((link) => link === document.activeElement));
  const download = page.waitForEvent("download");
  await keys.press("Enter");
  const csv = readFileSync(await (await download).path(), "utf8");

  const from = Date.parse(`${weekStart}T00:00:00Z`);
  const until = Date.parse(`${today}T00:00:00Z`) + DAY_MS;
  const input = (signup: FixtureSignup, label: string) => (signup.customInputs as { label: string; value: string }[]).find((entry) => entry.label === label)?.value;
  const wanted = signups.filter(
    (signup) => signup.verified && input(signup, "Company") === "Acme" && input(signup, "Role") === "Engineer" && signup.createdAt.getTime() >= from && signup.createdAt.getTime() < until,
  );
  expect(wanted.length).toBeGreaterThan(3);
  const exported = (parse(csv, { columns: true }) as { email: string }[]).map((record) => record.email);
  expect(exported.sort()).toEqual(wanted.map((signup) => signup.email).sort());

  console.log(`keyboard-only export: ${keys.presses} key presses`);
  expect(keys.presses).toBeLessThanOrEqual(40);
});

test("a facet group is one tab stop: arrow keys, Home and End move inside it, Space picks a value", async ({ page, context }) => {
  const { waitlist } = await keyboardFixture();
  await signIn(context);
  await page.goto(`/waitlists/${waitlist.id}`);
  const verified = page.getByRole("group", { name: "Verified" });
  const toolbar = verified.getByRole("toolbar", { name: "Verified" });
  await expect(toolbar).toHaveAttribute("aria-orientation", "vertical");
  await verified.getByRole("link", { name: /^Any/ }).focus();
  await expect(verified.getByRole("link", { name: /^Yes/ })).toHaveAttribute("tabindex", "-1");
  await page.keyboard.press("ArrowDown");
  await expect(verified.getByRole("link", { name: /^Yes/ })).toBeFocused();
  await page.keyboard.press("End");
  await expect(verified.getByRole("link", { name: /^No/ })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(verified.getByRole("link", { name: /^Any/ })).toBeFocused();
  await page.keyboard.press("Home");
  await expect(verified.getByRole("link", { name: /^Any/ })).toBeFocused();
  // Tab leaves the group at once: the next stop is the Referral group.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("group", { name: "Referral" }).getByRole("link", { name: /^Any/ })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(verified.getByRole("link", { name: /^Any/ })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Space");
  await expect(page).toHaveURL(/verified=true/);
  await expect(verified.getByRole("link", { name: /^Yes/ })).toHaveAttribute("aria-current", "true");
  await expect(verified.getByRole("link", { name: /^Yes/ })).toHaveAttribute("tabindex", "0");
});

test("the skip link jumps past the header and the filters to the signups", async ({ page, context }) => {
  const { waitlist } = await keyboardFixture();
  await signIn(context);
  await page.goto(`/waitlists/${waitlist.id}`);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to signups" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("searchbox", { name: "Search by email" })).toBeFocused();
});

test("the chart's range is set from the keyboard: arrows move a cursor, Shift extends it, Escape drops it", async ({ page, context }) => {
  const { waitlist } = await keyboardFixture();
  await signIn(context);
  await page.goto(`/waitlists/${waitlist.id}`);
  const chart = page.locator('[aria-roledescription="chart"]');
  await chart.focus();
  const cursor = page.getByTestId("chart-cursor");
  const day = (back: number) => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" }).format(new Date(Date.now() - back * DAY_MS));
  await expect(cursor).toHaveText(new RegExp(`^${day(0)}: 6 signups \\(today, so far\\)\\. Enter shows this day\\.$`));
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(cursor).toHaveText(`${day(2)}: 6 signups. Enter shows this day.`);
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(cursor).toHaveText(`${day(3)} to ${day(2)}, 2 days: 12 signups. Enter shows these days.`);
  await page.keyboard.press("Escape");
  await expect(cursor).toHaveText("");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Enter");
  const picked = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
  await expect(page).toHaveURL(new RegExp(`created_since=${picked}`));
  await expect(page.getByRole("list", { name: "Active filters" })).toContainText("Signed up on");
});
