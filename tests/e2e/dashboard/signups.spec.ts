import { parse } from "csv-parse/sync";
import { expect, test, type Page } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { inputColumnsOf } from "@/lib/domain/signups/csv";
import { countSignupsSince } from "@/lib/domain/signups/counts";
import { signupRowBatches } from "@/lib/domain/signups/queries";
import type { SignupRow } from "@/lib/domain/signups/row";
import { type SignupScope } from "@/lib/domain/signups/filter";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { rawSql } from "../support/raw-sql";
import { counts, createFixtureWaitlist, emailsOnPage, expectedEmails, formatCount, insertSignups, signIn } from "../support/support";

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

let waitlist: Waitlist;
let base: string;
test.beforeAll(async () => {
  waitlist = (await createFixtureWaitlist(137)).waitlist;
  base = `/waitlists/${waitlist.id}`;
});
const OPTIONS = [undefined, true, false] as const;
const word = (value: boolean | undefined) => (value === undefined ? "any" : value ? "yes" : "no");

function query(filters: { verified?: boolean; referral?: boolean }) {
  const search = new URLSearchParams();
  if (filters.verified !== undefined) search.set("verified", String(filters.verified));
  if (filters.referral !== undefined) search.set("referral", String(filters.referral));
  return search.toString();
}

async function expectShowing(page: Page, first: number, last: number, total: number) {
  await expect(page.getByTestId("showing")).toHaveText(`Showing ${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`);
}

test("every filter combination shows the query layer's counts, facets and rows", async ({ page }) => {
  for (const verified of OPTIONS) {
    for (const referral of OPTIONS) {
      const scope: SignupScope = { waitlistId: waitlist.id, verified, referral };
      const expected = await counts(scope);
      await page.goto(`${base}?${query({ verified, referral })}`);
      const label = `verified=${word(verified)} referral=${word(referral)}`;
      await expect(page.getByTestId("figure-total"), label).toHaveText(formatCount(expected.total));
      await expect(page.getByTestId("figure-verified"), label).toHaveText(formatCount(expected.verified));
      await expect(page.getByTestId("figure-referral"), label).toHaveText(formatCount(expected.referral));
      await expect(page.getByTestId("figure-last-7-days"), label).toHaveText(formatCount(await countSignupsSince(scope, new Date(Date.now() - 7 * 86_400_000))));
      await expect(page.getByTestId("facet-verified-any"), label).toHaveText(formatCount(expected.verifiedFacet.yes + expected.verifiedFacet.no));
      await expect(page.getByTestId("facet-verified-yes"), label).toHaveText(formatCount(expected.verifiedFacet.yes));
      await expect(page.getByTestId("facet-verified-no"), label).toHaveText(formatCount(expected.verifiedFacet.no));
      await expect(page.getByTestId("facet-referral-any"), label).toHaveText(formatCount(expected.referralFacet.yes + expected.referralFacet.no));
      await expect(page.getByTestId("facet-referral-yes"), label).toHaveText(formatCount(expected.referralFacet.yes));
      await expect(page.getByTestId("facet-referral-no"), label).toHaveText(formatCount(expected.referralFacet.no));
      await expectShowing(page, 1, Math.min(25, expected.total), expected.total);
      expect(await emailsOnPage(page), label).toEqual(await expectedEmails(scope));
      // The active option is marked for assistive technology.
      await expect(page.getByRole("group", { name: "Verified" }).locator('[aria-current="true"]')).toContainText(word(verified), { ignoreCase: true });
      await expect(page.getByRole("group", { name: "Referral" }).locator('[aria-current="true"]')).toContainText(word(referral), { ignoreCase: true });
    }
  }
});

test("filters, search, sort and pagination are driven by clicks and live in the URL", async ({ page }) => {
  await page.goto(base);
  await expectShowing(page, 1, 25, 137);

  await page.getByRole("group", { name: "Verified" }).getByRole("link", { name: /^Yes/ }).click();
  await expect(page).toHaveURL(`${base}?verified=true`);
  const verifiedScope = { waitlistId: waitlist.id, verified: true };
  await expectShowing(page, 1, 25, (await counts(verifiedScope)).total);

  await page.getByRole("group", { name: "Referral" }).getByRole("link", { name: /^No/ }).click();
  await expect(page).toHaveURL(`${base}?verified=true&referral=false`);
  const bothScope = { waitlistId: waitlist.id, verified: true, referral: false };
  const bothTotal = (await counts(bothScope)).total;
  await expectShowing(page, 1, 25, bothTotal);

  await page.getByRole("link", { name: /^Email/ }).click();
  await expect(page).toHaveURL(`${base}?verified=true&referral=false&sort=email&dir=asc`);
  await expect(page.getByRole("columnheader", { name: /Email/ })).toHaveAttribute("aria-sort", "ascending");
  expect(await emailsOnPage(page)).toEqual(await expectedEmails(bothScope, { sort: "email", direction: "asc" }));

  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(`${base}?verified=true&referral=false&sort=email&dir=asc&page=2`);
  await expectShowing(page, 26, Math.min(50, bothTotal), bothTotal);
  expect(await emailsOnPage(page)).toEqual(await expectedEmails(bothScope, { sort: "email", direction: "asc", page: 2 }));

  await page.getByRole("link", { name: /^Email/ }).click();
  await expect(page).toHaveURL(`${base}?verified=true&referral=false&sort=email`);
  expect(await emailsOnPage(page)).toEqual(await expectedEmails(bothScope, { sort: "email", direction: "desc" }));

  await page.getByLabel("Rows per page").selectOption("50");
  await expect(page).toHaveURL(`${base}?verified=true&referral=false&sort=email&size=50`);
  await expectShowing(page, 1, Math.min(50, bothTotal), bothTotal);

  // Reload and back/forward reproduce the same views.
  await page.reload();
  await expectShowing(page, 1, Math.min(50, bothTotal), bothTotal);
  expect(await emailsOnPage(page)).toEqual(await expectedEmails(bothScope, { sort: "email", direction: "desc", size: 50 }));
  await page.goBack();
  await expect(page).toHaveURL(`${base}?verified=true&referral=false&sort=email`);
  await expectShowing(page, 1, 25, bothTotal);
  await page.goBack();
  await expect(page).toHaveURL(`${base}?verified=true&referral=false&sort=email&dir=asc&page=2`);
  await expectShowing(page, 26, Math.min(50, bothTotal), bothTotal);
  expect(await emailsOnPage(page)).toEqual(await expectedEmails(bothScope, { sort: "email", direction: "asc", page: 2 }));
  await page.goForward();
  await expect(page).toHaveURL(`${base}?verified=true&referral=false&sort=email`);

  await page.getByRole("link", { name: "Clear filters" }).first().click();
  await expect(page).toHaveURL(base);
  await expectShowing(page, 1, 25, 137);
});

test("the last page and the page count follow the total", async ({ page }) => {
  await page.goto(`${base}?size=50&page=3`);
  await expectShowing(page, 101, 137, 137);
  await expect(page.getByText("Page 3 of 3")).toBeVisible();
  await expect(page.getByText("Next page (not available)")).toBeAttached();
  await page.getByRole("link", { name: "First page" }).click();
  await expectShowing(page, 1, 50, 137);
  await page.goto(`${base}?page=99`);
  await expect(page.getByText("This page is past the end of the list.")).toBeVisible();
});

test("email search is case-insensitive and combines with the filters", async ({ page }) => {
  await page.goto(`${base}?verified=true`);
  await page.getByRole("searchbox", { name: "Search by email" }).fill("ANN.");
  await expect(page).toHaveURL(`${base}?verified=true&email_contains=ANN.`);
  const scope = { waitlistId: waitlist.id, verified: true, emailContains: "ANN." };
  const expected = await counts(scope);
  expect(expected.total).toBeGreaterThan(0);
  await expectShowing(page, 1, Math.min(25, expected.total), expected.total);
  for (const email of await emailsOnPage(page)) expect(email.toLowerCase()).toContain("ann.");
  expect(await emailsOnPage(page)).toEqual(await expectedEmails(scope));

  await page.getByRole("searchbox", { name: "Search by email" }).fill("no-such-email");
  await expect(page.getByText("No signups match these filters.")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).last().click();
  await expect(page).toHaveURL(base);
  await expect(page.getByRole("searchbox", { name: "Search by email" })).toHaveValue("");
});

test("invalid URL values fall back to the defaults without an error", async ({ page }) => {
  await page.goto(`${base}?verified=maybe&referral=1&sort=password&dir=up&page=-4&size=7&email_contains=&email=&created_since=2026-02-30`);
  await expectShowing(page, 1, 25, 137);
  expect(await emailsOnPage(page)).toEqual(await expectedEmails({ waitlistId: waitlist.id }));
  await expect(page.getByRole("group", { name: "Verified" }).locator('[aria-current="true"]')).toContainText("Any");
});

test("columns can be hidden and a row opens the detail view of its custom inputs", async ({ page }) => {
  await page.goto(`${base}?sort=created_at&dir=asc`);
  await expect(page.getByRole("columnheader", { name: "Custom inputs" })).toBeVisible();
  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("checkbox", { name: "Custom inputs" }).uncheck();
  await expect(page.getByRole("columnheader", { name: "Custom inputs" })).toHaveCount(0);
  // Email, Verified, Referral, Status, Place, Signed up.
  await expect(page.locator("tbody tr").first().locator("td")).toHaveCount(6);
  await page.getByRole("checkbox", { name: "Custom inputs" }).check();
  await expect(page.getByRole("columnheader", { name: "Custom inputs" })).toBeVisible();
  await page.getByText("Columns", { exact: true }).click();

  // Row 1 (index 1) has {label, value} inputs, row 2 has an arbitrary object.
  const [, second, third] = await emailsOnPage(page);
  await page.getByRole("link", { name: second }).click();
  const dialog = page.getByRole("dialog", { name: second });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator("dl").last().locator("dt")).toHaveText(["Company", "Role"]);
  await expect(dialog.locator("dl").last().locator("dd")).toHaveText(["Company 1", "Engineer"]);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.getByRole("link", { name: third }).focus();
  await page.keyboard.press("Enter");
  const other = page.getByRole("dialog", { name: third });
  await expect(other.locator("dl").last().locator("dt")).toHaveText(["plan", "seats", "tags"]);
  await expect(other.locator("dl").last().locator("dd").nth(2)).toContainText('"a"');
  await other.getByRole("button", { name: "Close" }).click();
  await expect(other).toBeHidden();
  await expect(page.getByRole("link", { name: third })).toBeFocused();
});

test("the CSV export holds the complete filtered set", async ({ page }) => {
  await page.goto(`${base}?verified=true&referral=false&page=2&sort=email`);
  const total = (await counts({ waitlistId: waitlist.id, verified: true, referral: false })).total;
  // The button says how many rows it exports; the file's name, which filters made it.
  const button = page.getByRole("link", { name: `Export ${formatCount(total)} rows as CSV` });
  const downloadPromise = page.waitForEvent("download");
  await button.click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^fixture-list-[a-z0-9]+-verified-not-referral-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const records = parse(text, { columns: true }) as Record<string, string>[];
  const expected: SignupRow[] = [];
  for await (const batch of signupRowBatches({ waitlistId: waitlist.id, verified: true, referral: false })) expected.push(...batch);
  expect(records).toHaveLength((await counts({ waitlistId: waitlist.id, verified: true, referral: false })).total);
  expect(records).toEqual(
    expected.map((row) => ({
      email: row.email,
      verified: "true",
      referral: "false",
      custom_inputs: JSON.stringify(row.customInputs),
      created_at: row.createdAt.toISOString(),
      status: row.status,
      status_changed_at: row.statusChangedAt?.toISOString() ?? "",
    })),
  );
});

test("'Answers in columns' exports each form field in a column of its own, as `signups export --columns inputs` does", async ({ page }) => {
  await page.goto(`${base}?verified=true`);
  const table = page.getByRole("region", { name: "Signups" });
  await table.getByRole("checkbox", { name: "Answers in columns" }).check();
  await expect(table.getByTestId("export-csv")).toHaveAttribute("href", `/waitlists/${waitlist.id}/export?verified=true&columns=inputs`);
  const downloadPromise = page.waitForEvent("download");
  await table.getByTestId("export-csv").click();
  const download = await downloadPromise;
  const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const labels = await inputColumnsOf(waitlist.id);
  expect(labels.length).toBeGreaterThan(0);
  expect(text.split("\r\n", 1)[0]).toBe(["email", "verified", "referral", "custom_inputs", "created_at", "status", "status_changed_at", ...labels].join(","));
  const records = parse(text, { columns: true }) as Record<string, string>[];
  const expected: SignupRow[] = [];
  for await (const batch of signupRowBatches({ waitlistId: waitlist.id, verified: true })) expected.push(...batch);
  expect(records).toHaveLength(expected.length);
  records.forEach((record, index) => {
    const inputs = expected[index]!.customInputs as { label?: string; value?: unknown }[];
    for (const label of labels) {
      const answer = inputs.find((input) => input.label === label && ["string", "number", "boolean"].includes(typeof input.value));
      expect(record[label], `${record.email} ${label}`).toBe(answer === undefined ? "" : String(answer.value));
    }
  });
  // Any other value of `columns` is refused, and nothing is exported.
  const wrong = await page.request.get(`/waitlists/${waitlist.id}/export?columns=wide`);
  expect(wrong.status()).toBe(400);
  expect(await wrong.text()).toBe('The columns parameter can only be "inputs" (each answer in a column of its own), or left out.\n');
});

test("the CSV export protects spreadsheets from formulas and follows the search", async ({ page }) => {
  const list = await createWaitlist({ name: "Formula list", website: "https://f.example.com" });
  await rawSql.run(
    "INSERT INTO signups (waitlist_id, email, verified, referral, custom_inputs, created_at) VALUES (?, ?, 1, 0, ?, ?), (?, ?, 1, 0, '[]', ?)",
    list.id,
    "=HYPERLINK(\"x\")@evil.com",
    JSON.stringify([{ label: "a,b", value: 'say "hi"' }]),
    1000,
    list.id,
    "plain@example.com",
    2000,
  );
  const response = await page.request.get(`/waitlists/${list.id}/export?email_contains=hyperlink`);
  expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="formula-list-email-contains-hyperlink-\d{4}-\d{2}-\d{2}\.csv"$/);
  const records = parse(await response.text(), { columns: true }) as Record<string, string>[];
  expect(records).toEqual([
    { email: "'=HYPERLINK(\"x\")@evil.com", verified: "true", referral: "false", custom_inputs: '[{"label":"a,b","value":"say \\"hi\\""}]', created_at: new Date(1000).toISOString(), status: "waiting", status_changed_at: "" },
  ]);
});

test("the API box shows the /v1 URL and curl command for the current filters", async ({ page, baseURL }) => {
  await page.goto(`${base}?verified=false&referral=true&page=2&sort=email`);
  await page.getByText("Same data from the API").click();
  await expect(page.getByTestId("api-url")).toHaveText(`${baseURL}/v1/waitlist/${waitlist.id}/signup?verified=false&referral=true`);
  await expect(page.getByText(`curl -H "Authorization: Bearer <API_KEY>" '${baseURL}/v1/waitlist/${waitlist.id}/signup?verified=false&referral=true'`)).toBeVisible();
  // The search is part of the request too.
  await page.goto(`${base}?email_contains=ann`);
  await page.getByText("Same data from the API").click();
  await expect(page.getByTestId("api-url")).toHaveText(`${baseURL}/v1/waitlist/${waitlist.id}/signup?email_contains=ann`);
});

test("the chart summarises signups per day for the last 90 days", async ({ page }) => {
  await page.goto(base);
  const inWindow = (await counts({ waitlistId: waitlist.id })).total; // the fixture spans about 29 days
  await expect(page.getByTestId("chart-summary")).toContainText(`${formatCount(inWindow)} signups in the last 90 days`);
  await expect(page.getByRole("img", { name: /Bar chart:/ })).toBeVisible();
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeAttached();
});

test("a list without signups says so", async ({ page }) => {
  const empty = await createWaitlist({ name: "Nobody yet", website: "https://n.example.com" });
  await page.goto(`/waitlists/${empty.id}`);
  await expect(page.getByText("This waitlist has no signups yet.")).toBeVisible();
  await expect(page.getByTestId("figure-total")).toHaveText("0");
  await expect(page.getByTestId("figure-verified")).toHaveText("0");
  // The call to import signups is for admins only.
  await expect(page.getByRole("link", { name: "Import signups" })).toHaveCount(0);
});

test("an empty list offers an admin to open joining or import signups", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const empty = await createWaitlist({ name: "Nobody yet either", website: "https://n.example.com" });
  await page.goto(`/waitlists/${empty.id}`);
  await expect(page.getByRole("link", { name: "Export 0 rows as CSV" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open joining" })).toHaveAttribute("href", `/waitlists/${empty.id}/join`);
  await page.getByRole("link", { name: "Import signups" }).click();
  await expect(page).toHaveURL(`/waitlists/${empty.id}/import`);
});

test("unknown and malformed waitlist ids get a real 404", async ({ page }) => {
  for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "1%27%20OR%201%3D1"]) {
    const response = await page.goto(`/waitlists/${id}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { name: "Waitlist not found" })).toBeVisible();
  }
  const exportResponse = await page.request.get("/waitlists/not-a-uuid/export");
  expect(exportResponse.status()).toBe(404);
  const unknownPage = await page.goto("/no/such/page");
  expect(unknownPage?.status()).toBe(404);
});

test("a database failure shows an error page, not an empty list", async ({ page }) => {
  await page.goto(base);
  await rawSql.run("ALTER TABLE signups RENAME TO signups_hidden_by_test");
  try {
    await page.goto(`${base}?verified=true`);
    await expect(page.getByRole("alert").filter({ hasText: "Something went wrong" })).toContainText("Something went wrong");
    await expect(page.getByRole("alert").filter({ hasText: "Something went wrong" })).toContainText("This is an error, not an empty list.");
    await expect(page.getByText("No signups match")).toHaveCount(0);
    await expect(page.getByText("has no signups yet")).toHaveCount(0);
  } finally {
    await rawSql.run("ALTER TABLE signups_hidden_by_test RENAME TO signups");
  }
  await page.getByRole("button", { name: "Try again" }).click();
  await expectShowing(page, 1, 25, (await counts({ waitlistId: waitlist.id, verified: true })).total);
});

test("'Last 7 days' and the chart agree on signups dated in the future (an import accepts up to a day ahead)", async ({ page }) => {
  const list = await createWaitlist({ name: `Future-dated ${Date.now().toString(36)}`, website: "https://future.example" });
  const now = Date.now();
  const tomorrow = now - (now % 86_400_000) + 86_400_000;
  const signup = (email: string, at: number) => ({ email, verified: false, referral: false, customInputs: [], createdAt: new Date(at) });
  // Two past signups in the last week; three dated just after midnight UTC tonight, within a day of now.
  await insertSignups(list.id, [signup("past.1@future.example", now - 2 * 86_400_000), signup("past.2@future.example", now - 3_600_000)]);
  await insertSignups(list.id, [1, 2, 3].map((n) => signup(`ahead.${n}@future.example`, tomorrow + n)));
  await page.goto(`/waitlists/${list.id}`);
  await expect(page.getByTestId("figure-total")).toHaveText("5");
  await expect(page.getByTestId("figure-last-7-days")).toHaveText("2");
  await expect(page.getByTestId("chart-summary")).toContainText(/^2 signups/);
});

test("the status facet counts each status under the other filters, and its links filter by status", async ({ page }) => {
  const list = await createWaitlist({ name: "Statuses", website: "https://s.example.com" });
  const statuses = ["waiting", "invited", "invited", "completed", "rejected", "waiting", "invited"] as const;
  await insertSignups(
    list.id,
    statuses.map((status, index) => ({ email: `s${index}@example.com`, verified: index % 2 === 0, referral: false, customInputs: [], createdAt: new Date(Date.UTC(2026, 9, 1 + index)), status })),
  );
  await page.goto(`/waitlists/${list.id}?verified=true`);
  // Verified: s0 waiting, s2 invited, s4 rejected, s6 invited.
  for (const [option, count] of [["any", 4], ["waiting", 1], ["invited", 2], ["completed", 0], ["rejected", 1]] as const) {
    await expect(page.getByTestId(`facet-status-${option}`), option).toHaveText(formatCount(count));
  }
  await page.getByRole("link", { name: /^Invited/ }).click();
  await expect(page).toHaveURL(/status=invited/);
  await expect(page.getByTestId("figure-total")).toHaveText("2");
  // Picking a second status adds it: waiting or invited.
  await page.getByRole("link", { name: /^Waiting/ }).click();
  await expect(page).toHaveURL(/status=waiting%2Cinvited|status=waiting,invited/);
  await expect(page.getByTestId("figure-total")).toHaveText("3");
  expect((await emailsOnPage(page)).sort()).toEqual(["s0@example.com", "s2@example.com", "s6@example.com"]);
});
