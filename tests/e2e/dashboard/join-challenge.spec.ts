import { expect, test } from "@playwright/test";
import { expectNoAxeViolations, SWEEP_TAGS } from "../support/axe";
import { joinThroughForm, openWaitlist, signupsOf } from "../support/join-fixtures";
import { baseURL, unique } from "../support/support";

// The hosted page's proof of work (ALTCHA, self-hosted): on by default; with JavaScript the widget
// solves it while the person types; a POST without a solution is refused; without JavaScript the
// page says the check needs it.

test("with JavaScript: the widget solves the challenge and the join goes through; a join without a solution is refused", async ({ page }) => {
  const waitlist = await openWaitlist({ challenge: true });
  const challenges: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/challenge")) challenges.push(request.url());
  });
  await page.goto(`/join/${waitlist.id}`);
  const widget = page.locator("altcha-widget");
  await expect(widget).toBeVisible();
  await expect(page.getByTestId("challenge-needs-js")).toHaveCount(0);
  // Solved in the browser (the payload lands in the form's `altcha` field).
  await expect(page.locator('input[name="altcha"]')).toHaveValue(/.{20,}/, { timeout: 30_000 });
  expect(challenges).toEqual([`${baseURL}/join/${waitlist.id}/challenge`]);
  await expectNoAxeViolations(page, "join form with the challenge", { tags: SWEEP_TAGS });
  await joinThroughForm(page, `solved.${unique("c").replace(/\W/g, "")}@example.com`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");

  const unsolved = await page.request.post(`/join/${waitlist.id}/submit`, { form: { email: "bot@example.com" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(unsolved.headers().location).toBe(`/join/${waitlist.id}?error=challenge`);
  const garbage = await page.request.post(`/join/${waitlist.id}/submit`, { form: { email: "bot@example.com", altcha: Buffer.from('{"challenge":{},"solution":{}}').toString("base64") }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(garbage.headers().location).toBe(`/join/${waitlist.id}?error=challenge`);
  expect(await signupsOf(waitlist.id)).toHaveLength(1);
  await page.goto(`/join/${waitlist.id}?error=challenge`);
  await expect(page.getByTestId("join-error")).toContainText("anti-spam check did not complete");
});

test("without JavaScript and the challenge on, the page says the check needs JavaScript", async ({ browser }) => {
  const waitlist = await openWaitlist({ challenge: true });
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/join/${waitlist.id}`);
  await expect(page.getByTestId("challenge-needs-js")).toContainText("anti-spam check needs JavaScript: please turn JavaScript on to join.");
  await expect(page.locator("altcha-widget")).toHaveCount(0);
  await context.close();
});
