import { expect, test, type Page } from "@playwright/test";
import { CLI_ACTOR } from "@/lib/domain/audit/log";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { expectNoAxeViolations, settled, SWEEP_TAGS } from "../support/axe";
import { insertSignups, signIn, unique } from "../support/support";

// A new waitlist's launch checklist: each step ticks itself from the data, for admins only.

async function stepsDone(page: Page): Promise<Record<string, string>> {
  const steps = page.getByTestId("launch-checklist").locator("li[data-step]");
  await expect(steps).toHaveCount(6);
  return Object.fromEntries(await steps.evaluateAll((items) => items.map((item) => [item.getAttribute("data-step"), item.getAttribute("data-done")])));
}

test("a new waitlist shows an admin what to do next, and each step ticks itself from the data", async ({ page, context }) => {
  await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Launch"), website: "https://launch.example.com" });
  await page.goto(`/waitlists/${waitlist.id}`);
  await settled(page);
  const checklist = page.getByTestId("launch-checklist");
  // Nothing done (the test server has no SMTP_URL): open, each step with its link.
  await expect(checklist.locator("summary")).toHaveText("Launch checklist: 0 of 6 done");
  await expect(checklist).toHaveAttribute("open", "");
  expect(await stepsDone(page)).toEqual({ joining: "false", branding: "false", email: "false", first_signup: "false", first_invitation: "false", product: "false" });
  await expectNoAxeViolations(page, "a new waitlist's page with its checklist", { tags: SWEEP_TAGS });
  // The empty table offers the same first step.
  await expect(page.getByRole("link", { name: "Open joining" })).toBeVisible();
  await checklist.getByRole("link", { name: "Joining settings" }).click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}/join`);

  await updateJoinSettings(waitlist.id, { joining: "open", headline: "Be first" }, CLI_ACTOR);
  await insertSignups(waitlist.id, [{ email: "first@example.com", verified: true, referral: false, customInputs: [], createdAt: new Date() }]);
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(checklist.locator("summary")).toHaveText("Launch checklist: 3 of 6 done");
  // Half done: folded, the summary still says how far.
  await expect(checklist).not.toHaveAttribute("open", "");
  expect(await stepsDone(page)).toMatchObject({ joining: "true", branding: "true", first_signup: "true", first_invitation: "false" });

  await applyStatusAction(CLI_ACTOR, { action: "invite", selection: { waitlistId: waitlist.id, emails: ["first@example.com"] } });
  await page.goto(`/waitlists/${waitlist.id}`);
  expect(await stepsDone(page)).toMatchObject({ first_invitation: "true", product: "false" });
  // A completed signup alone is not a connected product: the invite URL is what the product redeems through.
  await applyStatusAction(CLI_ACTOR, { action: "complete", selection: { waitlistId: waitlist.id, emails: ["first@example.com"] } });
  await page.goto(`/waitlists/${waitlist.id}`);
  expect(await stepsDone(page)).toMatchObject({ product: "false" });
  await updateInvitationEmail(CLI_ACTOR, waitlist.id, { inviteUrl: "https://app.launch.example.com/signup" });
  await page.goto(`/waitlists/${waitlist.id}`);
  await expect(checklist.locator("summary")).toHaveText("Launch checklist: 5 of 6 done");
  expect(await stepsDone(page)).toMatchObject({ product: "true", email: "false" });
  await checklist.locator("summary").click();
  await expect(checklist.getByRole("link", { name: "Configuration" })).toHaveAttribute("href", "/docs/configuration");
});

test("a viewer sees no checklist", async ({ page, context }) => {
  await signIn(context, ["waitlist:view"]);
  const waitlist = await createWaitlist({ name: unique("Launch viewer"), website: "https://launch.example.com" });
  await page.goto(`/waitlists/${waitlist.id}`);
  await settled(page);
  await expect(page.getByText("This waitlist has no signups yet.")).toBeVisible();
  await expect(page.getByTestId("launch-checklist")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Open joining" })).toHaveCount(0);
});
