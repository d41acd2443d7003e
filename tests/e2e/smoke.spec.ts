import { expect, test } from "@playwright/test";
import { createWaitlist } from "@/lib/waitlists";

test("the production build serves the home page in Chromium", async ({ page }) => {
  const waitlist = createWaitlist({ name: `Smoke ${Date.now()}`, website: "https://example.com" });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText(waitlist.name)).toBeVisible();
});
