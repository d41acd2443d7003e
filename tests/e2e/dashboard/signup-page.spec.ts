import { expect, test } from "@playwright/test";
import type { Waitlist } from "@/db/schema";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createFixtureWaitlist, signIn } from "../support/support";

// /waitlists/{id}/signups/{signupId}: every field of one signup, reached from the detail dialog.

let waitlist: Waitlist;
let other: Waitlist;
test.beforeAll(async () => {
  waitlist = (await createFixtureWaitlist(12)).waitlist;
  other = (await createFixtureWaitlist(3)).waitlist;
});

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("the detail dialog links to the signup's page, which shows every field with copy buttons", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // Row 1 of the oldest-first order has {label, value} inputs.
  const signup = (await listSignupRows({ scope: { waitlistId: waitlist.id }, sort: "created_at", direction: "asc", offset: 1, limit: 1 }))[0]!;
  await page.goto(`/waitlists/${waitlist.id}?sort=created_at&dir=asc`);
  await page.getByRole("link", { name: signup.email }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Open this signup's page" }).click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}/signups/${signup.id}`);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(signup.email);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: waitlist.name })).toHaveAttribute("href", `/waitlists/${waitlist.id}`);
  await expect(page.getByTestId("signup-email")).toHaveText(signup.email);
  // The full timestamp: ISO 8601 UTC with milliseconds, and the reader's own time zone.
  const iso = signup.createdAt.toISOString();
  expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  await expect(page.getByTestId("signup-created-at")).toHaveText(iso);
  const local = await page.evaluate((instant) => new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" }).format(new Date(instant)), iso);
  await expect(page.getByTestId("local-time")).toHaveText(local);
  const inputs = page.getByTestId("custom-inputs");
  await expect(inputs.locator("dt")).toHaveText(["Company", "Role"]);
  await expect(inputs.locator("dd")).toHaveText(["Company 1", "Engineer"]);

  await page.getByRole("button", { name: "Copy signup time" }).click();
  await expect(page.getByRole("button", { name: "Copy signup time" })).toContainText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(iso);
  await page.getByRole("button", { name: "Copy email" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(signup.email);
  await page.getByRole("button", { name: "Copy custom inputs as JSON" }).click();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(signup.customInputs);
});

test("a signup without custom inputs says so", async ({ page }) => {
  const signup = (await listSignupRows({ scope: { waitlistId: waitlist.id }, sort: "created_at", direction: "asc", offset: 0, limit: 1 }))[0]!;
  await page.goto(`/waitlists/${waitlist.id}/signups/${signup.id}`);
  await expect(page.getByText("This signup has no custom inputs.")).toBeVisible();
});

test("unknown, malformed and other waitlists' signup ids get a real 404", async ({ page }) => {
  const elsewhere = (await listSignupRows({ scope: { waitlistId: other.id }, offset: 0, limit: 1 }))[0]!;
  for (const id of ["999999999", "abc", "01", "-1", "1.5", "9".repeat(30), String(elsewhere.id)]) {
    const response = await page.goto(`/waitlists/${waitlist.id}/signups/${encodeURIComponent(id)}`);
    expect(response?.status(), id).toBe(404);
    await expect(page.getByRole("heading", { name: "Signup not found" }), id).toBeVisible();
  }
  const unknownList = await page.goto(`/waitlists/00000000-0000-4000-8000-000000000000/signups/${elsewhere.id}`);
  expect(unknownList?.status()).toBe(404);
});
