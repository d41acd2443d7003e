import { expect, test } from "@playwright/test";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { funnelStats } from "@/lib/domain/funnel/stats";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { expectNoAxeViolations } from "../support/axe";
import { joinThroughForm, openWaitlist, signupsOf } from "../support/join-fixtures";
import { signIn, unique } from "../support/support";

// The funnel (issue 32, item 5), in Chromium against the real server: a person joins through the join
// page opened from a link with UTM parameters; the signup keeps them, the list's source facet shows
// them and filters by them, and the funnel page shows the same numbers as the domain function (and so
// as GET /v1/waitlist/{id}/stats).

test("UTM parameters of the join page's link reach the signup, the facet, the filter and the funnel page", async ({ page, context, browser }) => {
  await signIn(context, ["waitlist:view"]);
  const waitlist = await openWaitlist();
  const tag = unique("funnel").replace(/\W/g, "");
  // Others joined before, without a source; one of them is invited.
  for (let index = 0; index < 3; index++) await joinWaitlist({ waitlistId: waitlist.id, email: `before${index}.${tag}@example.com`, customInputs: [] });
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: [`before0.${tag}@example.com`] } });

  const visitor = await browser.newContext();
  const joiner = await visitor.newPage();
  await joiner.goto(`/join/${waitlist.id}?utm_source=newsletter&utm_campaign=launch`);
  await joinThroughForm(joiner, `reader.${tag}@example.com`);
  await visitor.close();
  const reader = (await signupsOf(waitlist.id)).find((signup) => signup.email === `reader.${tag}@example.com`)!;
  expect(reader).toBeDefined();

  // The facet counts it, and picking the value filters the list to it.
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(page.getByTestId("facet-utm_source-newsletter")).toHaveText("1");
  await expect(page.getByTestId("facet-utm_campaign-launch")).toHaveText("1");
  await page.getByRole("group", { name: "utm_source" }).getByRole("link", { name: /newsletter/ }).click();
  await expect(page).toHaveURL(/utm_source=newsletter/);
  await expect(page.getByRole("table").getByText(`reader.${tag}@example.com`)).toBeVisible();
  await expect(page.getByRole("table").getByText(`before1.${tag}@example.com`)).toHaveCount(0);

  // The funnel page: the stages with their conversion, the cohort and the source.
  await page.goto(`/waitlists/${waitlist.id}`);
  await page.getByRole("link", { name: "Funnel", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Funnel of");
  const stats = await funnelStats(waitlist.id);
  expect(stats.totals).toMatchObject({ joined: 4, invited: 1 });
  await expect(page.getByTestId("funnel-joined")).toHaveText(String(stats.totals.joined));
  await expect(page.getByTestId("funnel-invited")).toHaveText("1");
  await expect(page.getByTestId("funnel-invited-rate")).toHaveText("25% of joined");
  await expect(page.getByTestId("funnel-source-newsletter")).toContainText("newsletter");
  await expect(page.getByTestId("funnel-cohorts").getByRole("row")).toHaveCount(1 + stats.cohorts.length);
  // The page's views arrive within seconds (counted in memory, written in batches).
  await expect.poll(async () => (await funnelStats(waitlist.id)).totals.views, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  await page.reload();
  await expect(page.getByTestId("funnel-views")).toHaveText(String((await funnelStats(waitlist.id)).totals.views));
  await expectNoAxeViolations(page, "the funnel page");
});
