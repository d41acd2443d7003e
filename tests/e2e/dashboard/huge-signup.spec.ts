import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { SIGNUP_PAGE_BOUNDS } from "@/components/custom-inputs";
import { FACET_TEXT_CHARS } from "@/lib/domain/signups/limits";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { insertSignups } from "../../support/insert-signups";
import { createFixtureWaitlist, signIn } from "../support/support";

// One signup must not make a huge page (issue 19, item 4): a record of about 1 MB with 25,003 custom
// inputs, some of them long, made the signup's page 13.7 MB of HTML and the list page 2 MB. The pages
// show a bounded part (components/custom-inputs.ts) and link to the rest.

const MAX_PAGE_BYTES = 200_000;
const FIELDS = 25_000;

const longValue = "<b>Hello</b> & welcome, Zoë 😀 ".repeat(800);
const longKey = `${"Key".repeat(1000)}<`;
const inputs = [
  { label: "Message", value: longValue },
  { label: longKey, value: "a long key" },
  { profile: { tags: Array.from({ length: 400 }, (_, index) => `tag-${index}`) } },
  ...Array.from({ length: FIELDS }, (_, index) => ({ label: `Field ${index}`, value: `value ${index} lorem ipsum` })),
];
const TOTAL = inputs.length;
const count = (value: number) => new Intl.NumberFormat("en-US").format(value);
const formattedTotal = count(TOTAL);

let waitlist: Waitlist;
let signupPath = "";
test.beforeAll(async () => {
  waitlist = (await createFixtureWaitlist(5)).waitlist;
  const json = JSON.stringify(inputs);
  expect(json.length).toBeGreaterThan(1_000_000);
  insertSignups(waitlist.id, [{ email: "huge.signup@example.com", verified: true, referral: false, customInputs: json }]);
  const [newest] = await listSignupRows({ scope: { waitlistId: waitlist.id }, offset: 0, limit: 1 });
  expect(newest!.email).toBe("huge.signup@example.com");
  signupPath = `/waitlists/${waitlist.id}/signups/${newest!.id}`;
});

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

/** The size of a page's HTML as the server sends it (decoded, streamed parts included), read with the browser's cookies but apart from it (it keeps no body past 10 MB). */
async function htmlBytes(page: Page, path: string): Promise<number> {
  const response = await page.request.get(path);
  expect(response.status()).toBe(200);
  return (await response.body()).byteLength;
}

test("the signup's page shows the first 50 inputs, cut, in under 200 KB, and shows all of them as JSON", async ({ page }, testInfo) => {
  expect(await htmlBytes(page, signupPath)).toBeLessThan(MAX_PAGE_BYTES);
  await page.goto(signupPath);

  const list = page.getByTestId("custom-inputs");
  await expect(list.locator(":scope > div")).toHaveCount(50);
  await expect(page.getByTestId("custom-inputs-shown")).toContainText(`The first 50 of ${formattedTotal} are shown; long texts are cut.`);
  // A cut value and a cut key end with an ellipsis and say how much is missing.
  const message = list.locator(":scope > div").nth(0);
  await expect(message.locator("dt")).toHaveText("Message");
  await expect(message.locator("dd")).toContainText(`${longValue.slice(0, 40)}`);
  await expect(message.getByText(/more characters not shown/)).toHaveText(`(${count(longValue.length - SIGNUP_PAGE_BOUNDS.valueChars)} more characters not shown)`);
  await expect(list.locator(":scope > div").nth(1).locator("dt")).toContainText("more characters not shown");
  await expect(list.locator(":scope > div").nth(2).locator("pre")).toContainText("more characters not shown");
  await expect(list.locator(":scope > div").nth(49).locator("dt")).toHaveText("Field 46");
  // The stored JSON is too big to put in the page for the copy button.
  await expect(page.getByRole("button", { name: "Copy custom inputs as JSON" })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("signup-page.png") });

  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id)).toEqual([]);

  // "Show all" is a link, reached and followed with the keyboard, to every input as stored.
  const showAll = page.getByRole("link", { name: `Show all ${formattedTotal} custom inputs as JSON` });
  await showAll.focus();
  await expect(showAll).toBeFocused();
  const [json] = await Promise.all([page.waitForResponse((answer) => answer.url().endsWith(`${signupPath}/custom-inputs`)), page.keyboard.press("Enter")]);
  expect(json.status()).toBe(200);
  expect(json.headers()["content-type"]).toBe("application/json; charset=utf-8");
  expect(await json.json()).toEqual(inputs);
  await expect(page).toHaveURL(`${signupPath}/custom-inputs`);
});

test("the list page carries a few inputs per row, in under 200 KB, and its dialog says how many more there are", async ({ page }, testInfo) => {
  expect(await htmlBytes(page, `/waitlists/${waitlist.id}`)).toBeLessThan(MAX_PAGE_BYTES);
  await page.goto(`/waitlists/${waitlist.id}`);

  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "huge.signup@example.com" }) });
  await expect(row).toContainText(`Message: ${longValue.slice(0, 20)}`);
  await expect(row).toContainText(`+${count(TOTAL - 1)} more`);
  await row.getByRole("link", { name: "huge.signup@example.com" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("custom-inputs").locator(":scope > div")).toHaveCount(10);
  await expect(dialog.getByTestId("custom-inputs-more")).toHaveText(`and ${count(TOTAL - 10)} more, on this signup's page.`);
  await expect(dialog.getByText(/more characters not shown/).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("list-dialog.png") });
  await dialog.getByRole("link", { name: "Open this signup's page" }).click();
  await expect(page).toHaveURL(signupPath);
});

test("a signup's page stays within the bound when every character shown must be escaped", async ({ page }) => {
  // Every character shown costs the most bytes ("<" is "&lt;" in the HTML and "\u003c" in the page's React payload).
  // On a list of its own, whose list page is measured too: its facet panel lists no label that long.
  const { waitlist: own } = await createFixtureWaitlist(1);
  const hostile = Array.from({ length: 60 }, (_, index) => ({ label: `${index}${"<".repeat(500)}`, value: "<".repeat(1000) }));
  insertSignups(own.id, [{ email: "hostile.signup@example.com", verified: false, referral: false, customInputs: JSON.stringify(hostile) }]);
  const signup = (await listSignupRows({ scope: { waitlistId: own.id }, offset: 0, limit: 1 }))[0]!;
  expect(signup.email).toBe("hostile.signup@example.com");
  expect(await htmlBytes(page, `/waitlists/${own.id}/signups/${signup.id}`)).toBeLessThan(MAX_PAGE_BYTES);
  await page.goto(`/waitlists/${own.id}/signups/${signup.id}`);
  // The character budget (SIGNUP_PAGE_BOUNDS.totalChars) ends the list before 50 entries.
  const shown = await page.getByTestId("custom-inputs").locator(":scope > div").count();
  expect(shown).toBeGreaterThan(10);
  expect(shown).toBeLessThan(50);
  await expect(page.getByTestId("custom-inputs-shown")).toContainText(`The first ${shown} of 60 are shown; long texts are cut.`);
  await expect(page.getByTestId("custom-inputs").locator("dd").first()).toContainText("<<<<");
  expect(await htmlBytes(page, `/waitlists/${own.id}`)).toBeLessThan(MAX_PAGE_BYTES);
  await page.goto(`/waitlists/${own.id}`);
  await expect(page.getByTestId("input-facet")).toHaveCount(0);
});

test("the list page's facets list labels and values up to their bound, escaped, and leave out longer ones", async ({ page }) => {
  const { waitlist: own } = await createFixtureWaitlist(1);
  const text = (index: number, length: number) => `${index}`.padEnd(length, "<");
  // Eight labels of the longest listed length, each with such a value; a longer label (the most
  // common: it is given twice) and a longer value of the first label.
  const inputs = Array.from({ length: 8 }, (_, label) => ({ label: text(label, FACET_TEXT_CHARS), value: text(label, FACET_TEXT_CHARS) }));
  const longLabel = text(9, FACET_TEXT_CHARS + 1);
  inputs.push({ label: longLabel, value: "a" }, { label: longLabel, value: "b" }, { label: inputs[0]!.label, value: text(0, FACET_TEXT_CHARS + 1) });
  insertSignups(own.id, [{ email: "facet.signup@example.com", verified: false, referral: false, customInputs: JSON.stringify(inputs) }]);
  expect(await htmlBytes(page, `/waitlists/${own.id}`)).toBeLessThan(MAX_PAGE_BYTES);
  await page.goto(`/waitlists/${own.id}`);
  const facets = page.getByTestId("input-facet");
  await expect(facets).toHaveCount(8);
  await expect(facets.filter({ hasText: longLabel })).toHaveCount(0);
  const first = facets.filter({ hasText: inputs[0]!.label });
  await expect(first.getByRole("link")).toHaveCount(1);
  // A listed value still filters.
  await first.getByRole("link").click();
  await expect(page).toHaveURL(/input\./);
  await expect(first.getByRole("link")).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("row").filter({ hasText: "facet.signup@example.com" })).toHaveCount(1);
});

test("a signup shown whole but too long to copy links to its JSON instead; an unknown signup has none", async ({ page }) => {
  const { waitlist: own } = await createFixtureWaitlist(1);
  const inputs = Array.from({ length: 40 }, (_, index) => ({ label: `Answer ${index}`, value: `${index} ${"y".repeat(180)}` }));
  insertSignups(own.id, [{ email: "long.answers@example.com", verified: true, referral: false, customInputs: JSON.stringify(inputs) }]);
  const signup = (await listSignupRows({ scope: { waitlistId: own.id }, offset: 0, limit: 1 }))[0]!;
  await page.goto(`/waitlists/${own.id}/signups/${signup.id}`);
  await expect(page.getByTestId("custom-inputs").locator(":scope > div")).toHaveCount(40);
  await expect(page.getByText(/more characters? not shown/)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Copy custom inputs as JSON" })).toHaveCount(0);
  await expect(page.getByTestId("custom-inputs-shown")).toContainText("All 40 are shown. Show all 40 custom inputs as JSON");
  expect(await (await page.request.get(`/waitlists/${own.id}/signups/${signup.id}/custom-inputs`)).json()).toEqual(inputs);
  const unknown = await page.request.get(`/waitlists/${own.id}/signups/999999999/custom-inputs`);
  expect(unknown.status()).toBe(404);
});

test("a signup with a few short inputs still shows them whole, with the copy button and no JSON link", async ({ page }) => {
  // Row 1 of the oldest-first order has {label, value} inputs (tests/e2e/support/support.ts).
  const signup = (await listSignupRows({ scope: { waitlistId: waitlist.id }, sort: "created_at", direction: "asc", offset: 1, limit: 1 }))[0]!;
  await page.goto(`/waitlists/${waitlist.id}/signups/${signup.id}`);
  await expect(page.getByTestId("custom-inputs").locator("dd")).toHaveText(["Company 1", "Engineer"]);
  await expect(page.getByRole("button", { name: "Copy custom inputs as JSON" })).toBeVisible();
  await expect(page.getByTestId("custom-inputs-shown")).toHaveCount(0);
  await expect(page.getByText(/more characters? not shown/)).toHaveCount(0);
});
