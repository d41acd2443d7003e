import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { createFixtureWaitlist, signIn } from "../support/support";

// Screenshots of the waitlist page at desktop and phone size, for people to look at (SHOTS_DIR).

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

test("screenshots of the waitlist page", async ({ page, context }) => {
  const shots = process.env.SHOTS_DIR;
  test.skip(!shots, "SHOTS_DIR not set");
  mkdirSync(shots!, { recursive: true });
  const { waitlist } = createFixtureWaitlist(137);
  await signIn(context);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto(`/waitlists/${waitlist.id}`);
    await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
    const name = `${process.env.SHOTS_PREFIX ?? ""}waitlist-${viewport.width}x${viewport.height}`;
    await page.screenshot({ path: join(shots!, `${name}.png`) });
    await page.screenshot({ path: join(shots!, `${name}-full.png`), fullPage: true });
  }
});
