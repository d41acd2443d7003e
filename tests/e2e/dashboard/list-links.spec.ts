import { expect, test } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { signupPublicId } from "@/lib/domain/signups/id";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createFixtureWaitlist, signIn } from "../support/support";

// Emails in the signups table are links to the signup's page: a plain click opens the details
// dialog, a modified click opens the page. The custom inputs cell shows the filtered input first.

let waitlist: Waitlist;
test.beforeAll(async () => {
  waitlist = (await createFixtureWaitlist(60)).waitlist;
});

test("an email links to the signup's page: a plain click opens the dialog, Ctrl+click opens the page in a new tab", async ({ page, context }) => {
  await signIn(context);
  await page.goto(`/waitlists/${waitlist.id}?sort=created_at&dir=asc`);
  const first = (await listSignupRows({ scope: { waitlistId: waitlist.id }, sort: "created_at", direction: "asc", offset: 0, limit: 1 }))[0]!;
  const href = `/waitlists/${waitlist.id}/signups/${signupPublicId(first.id)}`;
  const link = page.locator("tbody tr").first().getByRole("link", { name: first.email });
  await expect(link).toHaveAttribute("href", href);

  await link.click();
  await expect(page.getByRole("dialog", { name: first.email })).toBeVisible();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}?sort=created_at&dir=asc`);
  await page.keyboard.press("Escape");

  const opened = context.waitForEvent("page");
  await link.click({ modifiers: ["ControlOrMeta"] });
  const tab = await opened;
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe(href);
  await expect(tab.getByTestId("signup-email")).toHaveText(first.email);
  await expect(page.getByRole("dialog")).toBeHidden();
});

test("the custom inputs cell shows the input the list is filtered on first", async ({ page, context }) => {
  await signIn(context);
  await page.goto(`/waitlists/${waitlist.id}?sort=created_at&dir=asc`);
  // Email, Verified, Referral, Status, then Custom inputs.
  const cell = (row: number) => page.locator("tbody tr").nth(row).locator("td").nth(4);
  // Row 1 of the fixture: [{Company: Company 1}, {Role: Engineer}].
  await expect(cell(1)).toHaveText("Company: Company 1 +1 more");
  await page.goto(`/waitlists/${waitlist.id}?sort=created_at&dir=asc&input.Role=Engineer`);
  await expect(cell(0)).toHaveText("Role: Engineer +1 more");
});

test("an admin erases a signup from the list in three steps: its email, Erase…, the confirmation", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  await page.goto(`/waitlists/${waitlist.id}?sort=created_at&dir=asc`);
  const email = (await page.locator("tbody tr").nth(2).getByRole("link").textContent())!;
  await page.getByRole("link", { name: email }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Erase this signup…" }).click();
  await page.getByRole("button", { name: "Erase this signup" }).click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}?done=erased`);
  await expect(page.getByRole("link", { name: email })).toHaveCount(0);
});

test("a viewer's details dialog has no erase link", async ({ page, context }) => {
  await signIn(context);
  await page.goto(`/waitlists/${waitlist.id}`);
  await page.locator("tbody tr").first().getByRole("link").click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page.getByRole("dialog").getByRole("link", { name: "Erase this signup…" })).toHaveCount(0);
});
