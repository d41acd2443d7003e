import { expect, test } from "@playwright/test";
import type { Role } from "@/lib/domain/keys/queries";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { expectNoAxeViolations, settled, SWEEP_TAGS } from "../support/axe";
import { createFixtureWaitlist, signIn } from "../support/support";

// The waitlist's list page and a signup's page: no axe violation of any impact (WCAG 2.2 A and AA and
// best practices), as an admin and as a viewer, at a desktop's and a phone's size; on the phone also
// with the filters drawer and the details dialog open. (Screenshots for people: accessibility.spec.ts
// with UI_SHOTS_DIR.)

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

let listPath = "";
let signupPath = "";
test.beforeAll(async () => {
  const { waitlist } = await createFixtureWaitlist(137);
  listPath = `/waitlists/${waitlist.id}`;
  signupPath = `${listPath}/signups/${(await listSignupRows({ scope: { waitlistId: waitlist.id }, offset: 1, limit: 1 }))[0]!.id}`;
});

const SESSIONS: { name: string; roles: Role[] }[] = [
  { name: "admin", roles: ["waitlist:admin"] },
  { name: "viewer", roles: ["waitlist:view"] },
];

for (const session of SESSIONS) {
  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`the list page and a signup's page have no axe violation, as ${session.name} at ${size}`, async ({ page, context }) => {
      await signIn(context, session.roles);
      await page.setViewportSize(viewport);
      for (const path of [listPath, `${listPath}?verified=true&input.Role=Engineer&created_since=2020-01-01`]) {
        await page.goto(path);
        await settled(page);
        await expectNoAxeViolations(page, `${path} as ${session.name} at ${size}`, { tags: SWEEP_TAGS });
      }
      if (viewport.width < 768) {
        await page.getByRole("button", { name: /^Filters \(\d+\)$/ }).click();
        await expect(page.getByRole("dialog", { name: "Filters" })).toBeVisible();
        await expectNoAxeViolations(page, `the filters drawer as ${session.name}`, { tags: SWEEP_TAGS });
        await page.keyboard.press("Escape");
      }
      await page.locator("tbody tr").first().getByRole("link").click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoAxeViolations(page, `the details dialog as ${session.name} at ${size}`, { tags: SWEEP_TAGS });
      await page.goto(signupPath);
      await settled(page);
      await expectNoAxeViolations(page, `the signup page as ${session.name} at ${size}`, { tags: SWEEP_TAGS });
    });
  }
}

test("in dark mode on a phone, the list page, its filters drawer and a signup's page have no axe violation", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize(VIEWPORTS[1]!);
  await page.goto(`${listPath}?verified=true&input.Role=Engineer`);
  await settled(page);
  await expectNoAxeViolations(page, "the list page in dark mode", { tags: SWEEP_TAGS });
  await page.getByRole("button", { name: "Filters (2)" }).click();
  await expect(page.getByRole("dialog", { name: "Filters" })).toBeVisible();
  await expectNoAxeViolations(page, "the filters drawer in dark mode", { tags: SWEEP_TAGS });
  await page.goto(signupPath);
  await settled(page);
  await expectNoAxeViolations(page, "the signup page in dark mode", { tags: SWEEP_TAGS });
});

