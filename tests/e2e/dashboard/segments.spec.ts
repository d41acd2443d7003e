import { expect, test, type Page } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import type { FixtureSignup } from "../support/support";
import { createKey, emailsOnPage, formatCount, insertSignups, signIn, unique } from "../support/support";
import { seedSignups } from "../support/seed-signups";
import { COMPANIES, createSegmentWaitlist, dayBefore, inputOf, PER_DAY, ROLES, withinDays } from "../support/segment-fixture";

// Date ranges, custom-input facets and the API box of the waitlist page, checked against the
// fixture itself (not the query layer), so a wrong filter anywhere shows.

let waitlist: Waitlist;
let signups: FixtureSignup[];
let base: string;
test.beforeAll(async () => {
  ({ waitlist, signups } = await createSegmentWaitlist());
  base = `/waitlists/${waitlist.id}`;
});

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

/** The fixture's emails a view should list first (newest first, ties by id descending), and how many match. */
function expected(match: (signup: FixtureSignup) => boolean) {
  const matching = signups.map((signup, index) => ({ signup, index })).filter(({ signup }) => match(signup));
  matching.sort((a, b) => b.signup.createdAt.getTime() - a.signup.createdAt.getTime() || b.index - a.index);
  return { total: matching.length, firstPage: matching.slice(0, 25).map(({ signup }) => signup.email) };
}

async function expectView(page: Page, match: (signup: FixtureSignup) => boolean) {
  const { total, firstPage } = expected(match);
  await expect(page.getByTestId("figure-total")).toHaveText(formatCount(total));
  await expect(page.getByTestId("showing")).toHaveText(`Showing 1–${Math.min(25, total)} of ${formatCount(total)}`);
  expect(await emailsOnPage(page)).toEqual(firstPage);
}

test("From and To set an inclusive UTC date range; its chip and Clear dates remove it", async ({ page }) => {
  const [from, to] = [dayBefore(8), dayBefore(5)];
  await page.goto(base);
  // Typed at once, perhaps before hydration: the days typed must survive it.
  await page.getByLabel("From", { exact: true }).fill(from);
  await page.getByLabel("To", { exact: true }).fill(to);
  await page.getByRole("button", { name: "Apply dates" }).click();
  // To is included: the range ends at the next midnight, as /v1's created_until (exclusive) says.
  await expect(page).toHaveURL(`${base}?created_since=${from}&created_until=${dayBefore(4)}`);
  await expectView(page, (signup) => withinDays(signup, from, to));
  expect(expected((signup) => withinDays(signup, from, to)).total).toBe(4 * PER_DAY);
  await expect(page.getByTestId("chart-summary")).toContainText(`${4 * PER_DAY} signups from`);

  await page.getByRole("link", { name: /^Remove the filter Signed up/ }).click();
  await expect(page).toHaveURL(base);
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("");
  await expectView(page, () => true);

  await page.goto(`${base}?created_since=${from}`);
  await expectView(page, (signup) => withinDays(signup, from, "9999-12-31"));
  await page.getByRole("link", { name: "Clear dates" }).click();
  await expect(page).toHaveURL(base);
});

test("old from/to/q bookmarks redirect (308) to the /v1 names, To becoming the next midnight, other parameters kept", async ({ page }) => {
  const [from, to] = [dayBefore(8), dayBefore(5)];
  const tag = waitlist.id.slice(0, 6);
  const old = `${base}?verified=true&from=${from}&to=${to}&q=${tag}&input.role=Engineer&sort=email&dir=asc`;
  const renamed = `${base}?verified=true&created_since=${from}&created_until=${dayBefore(4)}&email_contains=${tag}&input.role=Engineer&sort=email&dir=asc`;
  const response = await page.request.get(old, { maxRedirects: 0 });
  expect(response.status()).toBe(308);
  expect(new URL(response.headers()["location"]!, "http://x").pathname + new URL(response.headers()["location"]!, "http://x").search).toBe(renamed);
  // The CSV export's old links too.
  const exported = await page.request.get(`${base}/export?q=${tag}`, { maxRedirects: 0 });
  expect(exported.status()).toBe(308);
  expect(new URL(exported.headers()["location"]!, "http://x").search).toBe(`?email_contains=${tag}`);
  // A bookmark opens the same view under the new names.
  await page.goto(old);
  await expect(page).toHaveURL(renamed);
  await expectView(page, (signup) => signup.verified && withinDays(signup, from, to) && signup.email.includes(tag) && inputOf(signup, "role") === "Engineer");
});

test("the date form's plain GET submission (its fallback without JavaScript) arrives as the same range", async ({ page }) => {
  const [from, to] = [dayBefore(8), dayBefore(5)];
  await page.goto(`${base}?verified=true`);
  await page.getByLabel("From", { exact: true }).fill(from);
  await page.getByLabel("To", { exact: true }).fill(to);
  // What a browser without JavaScript sends: the form's action with its fields as the query.
  const submitted = await page.getByRole("group", { name: "Signed up (UTC)" }).evaluate((group) => {
    const element = group.closest("form")!;
    return `${new URL(element.action).pathname}?${new URLSearchParams(new FormData(element) as unknown as Record<string, string>).toString()}`;
  });
  const response = await page.request.get(submitted, { maxRedirects: 0 });
  expect(response.status()).toBe(308);
  await page.goto(submitted);
  await expect(page).toHaveURL(`${base}?verified=true&created_since=${from}&created_until=${dayBefore(4)}`);
  await expectView(page, (signup) => signup.verified && withinDays(signup, from, to));
});

test("clicking a bar of the chart selects that day, dragging across bars selects their range", async ({ page }) => {
  // Ten days, so that each bar is wide; bar i is the day 10 - i days before today.
  await page.goto(`${base}?verified=true&created_since=${dayBefore(10)}&created_until=${dayBefore(0)}`);
  const bars = page.locator(".recharts-bar-rectangle");
  await expect(bars).toHaveCount(10);
  await bars.nth(3).click();
  await expect(page).toHaveURL(`${base}?verified=true&created_since=${dayBefore(7)}&created_until=${dayBefore(6)}`);
  await expectView(page, (signup) => signup.verified && withinDays(signup, dayBefore(7), dayBefore(7)));
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(dayBefore(7));

  await page.goto(`${base}?created_since=${dayBefore(10)}&created_until=${dayBefore(0)}`);
  const start = (await bars.nth(6).boundingBox())!;
  const end = (await bars.nth(2).boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page).toHaveURL(`${base}?created_since=${dayBefore(8)}&created_until=${dayBefore(3)}`);
  await expectView(page, (signup) => withinDays(signup, dayBefore(8), dayBefore(4)));
});

test("a custom-input facet counts values under the other filters, filters on click, and its chip removes it", async ({ page }) => {
  await page.goto(`${base}?verified=true`);
  const role = page.getByRole("group", { name: "role" });
  for (const value of ROLES) {
    const count = expected((signup) => signup.verified && inputOf(signup, "role") === value).total;
    await expect(role.getByRole("link", { name: new RegExp(`^${value}`) })).toContainText(formatCount(count));
  }
  await role.getByRole("link", { name: /^Engineer/ }).click();
  await expect(page).toHaveURL(`${base}?verified=true&input.role=Engineer`);
  await expectView(page, (signup) => signup.verified && inputOf(signup, "role") === "Engineer");
  await expect(role.locator('[aria-current="true"]')).toContainText("Engineer");
  // The other values still count what picking them instead would select.
  const sales = expected((signup) => signup.verified && inputOf(signup, "role") === "Sales").total;
  await expect(role.getByRole("link", { name: /^Sales/ })).toContainText(formatCount(sales));
  // The company facet now counts under role=Engineer too.
  const company = page.getByRole("group", { name: "company" });
  const company0 = expected((signup) => signup.verified && inputOf(signup, "role") === "Engineer" && inputOf(signup, "company") === "Company 0").total;
  await expect(company.getByRole("link", { name: /^Company 0\b/ })).toContainText(formatCount(company0));

  await page.getByRole("link", { name: "Remove the filter role: Engineer" }).click();
  await expect(page).toHaveURL(`${base}?verified=true`);
  await expectView(page, (signup) => signup.verified);
});

test("a label with more values than shown offers a value search", async ({ page }) => {
  await page.goto(base);
  const company = page.getByRole("group", { name: "company" });
  await expect(company.getByText(`${COMPANIES} values in the list`)).toBeVisible();
  await expect(company.locator("ul").first().getByRole("link")).toHaveCount(10);
  await company.getByRole("searchbox", { name: "Search the values of company" }).fill("any 1");
  await company.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(`${base}?facet=input.company&facet_q=any+1`);
  const results = company.getByTestId("facet-value-search-results");
  // "Company 1" and "Company 10" to "Company 14".
  await expect(results.getByRole("link")).toHaveCount(6);
  const count13 = expected((signup) => inputOf(signup, "company") === "Company 13").total;
  await expect(results.getByRole("link", { name: /^Company 13/ })).toContainText(formatCount(count13));
  await results.getByRole("link", { name: /^Company 13/ }).click();
  await expect(page).toHaveURL(`${base}?input.company=Company+13`);
  await expectView(page, (signup) => inputOf(signup, "company") === "Company 13");
  // The active value stays visible (and removable) although it is not among the top ten.
  await expect(company.locator('[aria-current="true"]')).toContainText("Company 13");
});

test("a source facet with more values than shown offers the same value search, and its pick is the /v1 filter", async ({ page }) => {
  const own = await createWaitlist({ name: unique("Sources list"), website: "https://sources.example.com" });
  // 14 values of utm_source: newsletter-k has k + 1 signups, so the top ten are newsletter-4 to newsletter-13; utm_medium has one value.
  const rows = Array.from({ length: 14 }, (_, k) =>
    Array.from({ length: k + 1 }, (_, n) => ({
      email: `s${k}.${n}.${own.id.slice(0, 6)}@sources.example`,
      verified: true,
      referral: false,
      customInputs: "[]",
      createdAt: Date.now() - (k * 20 + n) * 60_000,
      source: { utm_source: `newsletter-${k}`, utm_medium: "email" },
    })),
  ).flat();
  await seedSignups(own.id, rows);
  await page.goto(`/waitlists/${own.id}`);
  await expect(page.getByRole("group", { name: "utm_source" }).getByRole("link")).toHaveCount(10);
  await expect(page.getByRole("searchbox", { name: "Search the values of utm_medium" })).toHaveCount(0);
  const search = page.getByRole("searchbox", { name: "Search the values of utm_source" });
  await expect(search).toHaveAttribute("placeholder", "Search its 14 values");
  await search.fill("LETTER-2");
  await search.press("Enter");
  await expect(page).toHaveURL(`/waitlists/${own.id}?facet=utm_source&facet_q=LETTER-2`);
  const results = page.getByTestId("facet-value-search-results");
  await expect(results.getByRole("link")).toHaveCount(1);
  await expect(results.getByRole("link", { name: /^newsletter-2/ })).toContainText("3");
  await results.getByRole("link", { name: /^newsletter-2/ }).click();
  await expect(page).toHaveURL(`/waitlists/${own.id}?utm_source=newsletter-2`);
  await expect(page.getByTestId("figure-total")).toHaveText("3");
  // The picked value is listed (and removable) with its count although it is not among the top ten.
  await expect(page.getByTestId("facet-utm_source-newsletter-2")).toHaveText("3");
  await expect(page.getByRole("group", { name: "utm_source" }).locator('[aria-current="true"]')).toContainText("newsletter-2");
  // /v1 takes the same parameter and finds the same signups.
  const response = await page.request.get(`/v1/waitlist/${own.id}/signup?utm_source=newsletter-2`, { headers: { authorization: `Bearer ${(await createKey()).key}` } });
  expect(((await response.json()) as unknown[]).length).toBe(3);
});

test("the API box shows the /v1 URL, curl and CLI export for every filter, and the URL returns the dashboard's count", async ({ page, baseURL }) => {
  const [from, to] = [dayBefore(15), dayBefore(3)];
  const tag = waitlist.id.slice(0, 6);
  const until = dayBefore(2);
  const query = `verified=true&created_since=${from}&created_until=${until}&email_contains=${tag}&input.role=Engineer`;
  // The page's URL and the API's take the same parameters.
  await page.goto(`${base}?${query}&sort=email&page=1`);
  await page.getByText("Same data from the API").click();
  const url = `${baseURL}/v1/waitlist/${waitlist.id}/signup?${query}`;
  await expect(page.getByTestId("api-url")).toHaveText(url);
  await expect(page.getByTestId("api-curl")).toHaveText(`curl -H "Authorization: Bearer <API_KEY>" '${url}'`);
  await expect(page.getByTestId("api-cli")).toHaveText(
    `npm run --silent cli -- signups export --waitlist ${waitlist.id} --verified true --created-since ${from} --created-until ${until} --email-contains ${tag} --input role=Engineer`,
  );
  const response = await page.request.get(url, { headers: { authorization: `Bearer ${(await createKey()).key}` } });
  expect(response.status()).toBe(200);
  const rows = (await response.json()) as { email: string }[];
  const total = expected((signup) => signup.verified && withinDays(signup, from, to) && inputOf(signup, "role") === "Engineer").total;
  expect(total).toBeGreaterThan(0);
  expect(rows).toHaveLength(total);
  await expect(page.getByTestId("figure-total")).toHaveText(formatCount(rows.length));
});

test("past 10,000 matching signups a facet's counts are lower bounds, read “at least” with a note", async ({ page }) => {
  const large = await createWaitlist({ name: unique("Facet cap"), website: "https://cap.example.com" });
  const start = Date.UTC(2026, 0, 1);
  await insertSignups(
    large.id,
    Array.from({ length: 10_400 }, (_, index) => ({
      email: `cap.${index}@example.com`,
      verified: index % 2 === 0,
      referral: false,
      customInputs: [
        { label: "role", value: index < 10_200 ? "Engineer" : "Sales" },
        { label: "team", value: `Team ${index % 3}` },
      ],
      createdAt: new Date(start + index * 60_000),
    })),
  );
  // Verified alone is counted exactly, from the counts table.
  await page.goto(`/waitlists/${large.id}?verified=true`);
  const team = page.getByRole("group", { name: "team" });
  await expect(team.getByRole("link", { name: /^Team 0/ })).toContainText(/1,734$/);
  await expect(team.getByText(/^“At least”:/)).toHaveCount(0);
  await expect(team.getByText(/at least/)).toHaveCount(0);
  // role=Engineer leaves 10,200 signups: the team facet counts the first 10,000 of them.
  await page.goto(`/waitlists/${large.id}?input.role=Engineer`);
  await expect(page.getByTestId("figure-total")).toHaveText("10,200");
  for (const name of ["Team 0", "Team 1", "Team 2"]) await expect(team.getByRole("link", { name: new RegExp(`^${name}`) })).toContainText(/at least \d[\d,]*$/);
  await expect(team.getByRole("link", { name: /^Team 0/ }).getByText(/^at least/)).toHaveAttribute("title", "Counted in the first 10,000 matching signups only, to keep the page fast: there may be more.");
  await expect(team.getByText("“At least”: Counted in the first 10,000 matching signups only, to keep the page fast: there may be more.")).toBeVisible();
  // The facet of the filtered label counts without its own filter: exact.
  await expect(page.getByRole("group", { name: "role" }).getByRole("link", { name: /^Sales/ })).toContainText(/200$/);
});
