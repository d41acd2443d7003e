import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { CountedKeyboard, focusedIn } from "../support/counted-keyboard";
import { insertSignups, signIn, unique, type FixtureSignup } from "../support/support";

// Issue 33's judges: two tasks from the waitlist page by keyboard alone, each in at most 40 key
// presses. Only page.keyboard acts; every press is counted (typed text: one per character), and
// nothing is focused by script.

const MAX_PRESSES = 40;

/** Whether the focused element is the one `locator` finds. */
const isFocused = (page: Page, selector: string) => () => page.evaluate((css) => document.activeElement !== null && document.activeElement === document.querySelector(css), selector);

/** 150 waiting signups, one an hour up to now, two of three verified, no referrals: the line is oldest first. */
async function taskFixture() {
  const waitlist = await createWaitlist({ name: unique("Keyboard tasks"), website: "https://tasks.example.com" });
  const now = Date.now();
  const signups: FixtureSignup[] = Array.from({ length: 150 }, (_, index) => ({
    email: `task.${String(index).padStart(3, "0")}.${waitlist.id.slice(0, 6)}@tasks.example`,
    verified: index % 3 !== 0,
    referral: false,
    customInputs: [],
    createdAt: new Date(now - (150 - index) * 3_600_000),
  }));
  await insertSignups(waitlist.id, signups);
  return { waitlist, signups };
}

async function openList(page: Page, waitlistId: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/waitlists/${waitlistId}`);
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
  return new CountedKeyboard(page);
}

/** The verified filter from the page's first tab stops: Skip to filters, the Verified group, Yes. */
async function filterVerified(page: Page, keys: CountedKeyboard) {
  await keys.press("Tab", 2);
  await expect(page.getByRole("link", { name: "Skip to filters" })).toBeFocused();
  await keys.press("Enter");
  await keys.tabUntil(focusedIn(page, '[role="toolbar"][aria-labelledby="filter-verified"]'));
  await keys.press("ArrowDown");
  await keys.press("Enter");
  await expect(page).toHaveURL(/verified=true/);
  await expect(page.getByTestId("figure-total")).toHaveText("100");
}

test("export the verified signups as CSV by keyboard alone, in at most 40 key presses", async ({ page, context }) => {
  const { waitlist, signups } = await taskFixture();
  await signIn(context);
  const keys = await openList(page, waitlist.id);
  await filterVerified(page, keys);

  await keys.tabUntil(isFocused(page, '[data-testid="export-csv"]'), { limit: 30 });
  const download = page.waitForEvent("download");
  await keys.press("Enter");
  const csv = readFileSync(await (await download).path(), "utf8");
  const exported = (parse(csv, { columns: true }) as { email: string }[]).map((record) => record.email);
  expect(exported.sort()).toEqual(signups.filter((signup) => signup.verified).map((signup) => signup.email));

  console.log(`keyboard task "export the verified signups": ${keys.presses} key presses`);
  expect(keys.presses).toBeLessThanOrEqual(MAX_PRESSES);
});

test("invite the next 50 verified signups by keyboard alone, in at most 40 key presses: the oldest first", async ({ page, context }) => {
  const { waitlist, signups } = await taskFixture();
  await signIn(context, ["waitlist:admin"]);
  const keys = await openList(page, waitlist.id);
  await filterVerified(page, keys);

  // "Invite the next [50] waiting": 50 is already there.
  await keys.tabUntil(isFocused(page, 'form:has(input[name="limit"]) button[type="submit"]'), { limit: 30 });
  await expect(page.getByRole("spinbutton", { name: /Invite the next/ })).toHaveValue("50");
  await keys.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Invite 50 signups?");
  await expect(page.getByTestId("selection-filter")).toHaveText("Filter: Verified.");
  // The confirmation opens with its question focused: the next stops are its own links and the confirm button.
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await keys.tabUntil(isFocused(page, 'form[action$="/status/invite/confirm"] button[type="submit"]'));
  await keys.press("Enter");
  await expect(page.getByTestId("done-notice")).toHaveText("Invited: 50 signups.");

  const oldestVerified = signups.filter((signup) => signup.verified).slice(0, 50).map((signup) => signup.email);
  const invited = (await listSignupRows({ scope: { waitlistId: waitlist.id, status: ["invited"] }, offset: 0, limit: 200 })).map((row) => row.email);
  expect(invited.sort()).toEqual(oldestVerified);

  console.log(`keyboard task "invite the next 50 verified": ${keys.presses} key presses`);
  expect(keys.presses).toBeLessThanOrEqual(MAX_PRESSES);
});
