import { expect, test } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { createFixtureWaitlist, insertSignups, signIn, unique } from "../support/support";

// Numbers that explain themselves: a picked facet value keeps its place and its count, no "last 7
// days" beside another range, even y-axis ticks, today's bar marked as a partial day.

let waitlist: Waitlist;
test.beforeAll(async () => {
  waitlist = (await createFixtureWaitlist(137)).waitlist;
});

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

const valueNames = (toolbar: import("@playwright/test").Locator) => toolbar.getByRole("link").evaluateAll((links) => links.map((link) => link.textContent));

test("a picked facet value stays in its place, with its count", async ({ page }) => {
  await page.goto(`/waitlists/${waitlist.id}`);
  const company = page.getByRole("group", { name: "Company" });
  const toolbar = company.getByRole("toolbar").first();
  const before = await valueNames(toolbar);
  expect(before.length).toBe(10);
  const third = toolbar.getByRole("link").nth(2);
  const text = (await third.textContent())!;
  await third.click();
  await expect(page).toHaveURL(/input\.Company=/);
  await expect(toolbar.getByRole("link").nth(2)).toHaveAttribute("aria-current", "true");
  expect(await valueNames(toolbar)).toEqual(before);
  expect(text).toMatch(/1$/);

  // A value found by the value search and picked joins the list in its place by count, with its count.
  await page.goto(`/waitlists/${waitlist.id}?facet=input.Company&facet_q=97`);
  await company.getByTestId("facet-value-search-results").getByRole("link", { name: /^Company 97/ }).click();
  await expect(page).toHaveURL(/input\.Company=Company\+97/);
  const picked = toolbar.getByRole("link", { name: /^Company 97/ });
  await expect(picked).toHaveAttribute("aria-current", "true");
  await expect(picked).toHaveText(/^Company 97\s*1$/);
});

test("'Last 7 days' shows only when no date range is set", async ({ page }) => {
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.getByTestId("figure-last-7-days")).toBeVisible();
  await page.goto(`/waitlists/${waitlist.id}?created_since=2020-01-01&created_until=2030-01-01`);
  await expect(page.getByTestId("figure-total")).toBeVisible();
  await expect(page.getByText("Last 7 days")).toHaveCount(0);
});

test("the chart's y-axis ticks are evenly spaced round numbers, and today's bar is marked as a partial day", async ({ page }) => {
  const list = await createWaitlist({ name: unique("Ticks list"), website: "https://ticks.example.com" });
  const now = Date.now();
  const today = now - (now % 86_400_000);
  // 34 signups three days ago, 2 today (after midnight UTC, before now).
  await insertSignups(list.id, [
    ...Array.from({ length: 34 }, (_, index) => ({ email: `busy.${index}@ticks.example`, verified: false, referral: false, customInputs: [], createdAt: new Date(today - 3 * 86_400_000 + index * 1000) })),
    ...[1, 2].map((index) => ({ email: `today.${index}@ticks.example`, verified: false, referral: false, customInputs: [], createdAt: new Date(today + Math.floor((now - today) / 3) * index) })),
  ]);
  await page.goto(`/waitlists/${list.id}`);
  const ticks = page.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
  await expect(ticks).toHaveText(["0", "10", "20", "30", "40"]);
  const ys = await ticks.evaluateAll((texts) => texts.map((text) => text.getBoundingClientRect().y));
  const gaps = ys.slice(1).map((y, index) => Math.abs(y - ys[index]!));
  for (const gap of gaps) expect(Math.abs(gap - gaps[0]!)).toBeLessThan(1.5);

  await expect(page.getByTestId("chart-partial")).toHaveText(" Today is not over: its bar (2 so far) is drawn lighter and dashed.");
  await expect(page.getByRole("img", { name: /^Bar chart:/ })).toHaveAttribute("aria-label", /Today is not over: its bar \(2 so far\) is drawn lighter and dashed\.$/);
  const bars = page.locator(".recharts-bar-rectangle path");
  await expect(bars.last()).toHaveAttribute("fill-opacity", "0.35");
  await expect(bars.last()).toHaveAttribute("stroke-dasharray", "2 2");
  await expect(bars.first()).not.toHaveAttribute("fill-opacity", "0.35");

  // A range that ends before today has no partial day.
  await page.goto(`/waitlists/${list.id}?created_since=${new Date(today - 5 * 86_400_000).toISOString().slice(0, 10)}&created_until=${new Date(today).toISOString().slice(0, 10)}`);
  await expect(page.getByTestId("chart-summary")).toContainText("34 signups");
  await expect(page.getByTestId("chart-partial")).toHaveCount(0);
});
