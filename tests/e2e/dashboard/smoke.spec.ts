import { expect, test } from "@playwright/test";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { signIn, unique } from "../support/support";

test("the production build serves the dashboard in Chromium", async ({ page, context }) => {
  const waitlist = await createWaitlist({ name: unique("Smoke"), website: "https://example.com" });
  await signIn(context);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Waitlists" })).toBeVisible();
  await expect(page.getByRole("link", { name: waitlist.name })).toBeVisible();
});
