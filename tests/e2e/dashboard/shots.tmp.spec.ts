import { test } from "@playwright/test";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createFixtureWaitlist, signIn } from "../support/support";

test("shots", async ({ page, context }) => {
  const { waitlist } = createFixtureWaitlist(120);
  applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId: waitlist.id }, limit: 20 } });
  applyStatusAction("cli", { action: "reject", selection: { scope: { waitlistId: waitlist.id }, limit: 5 } });
  await signIn(context, ["waitlist:admin"]);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`/waitlists/${waitlist.id}`);
  await page.getByLabel("Select every signup on this page").check();
  await page.screenshot({ path: "/work/shots/s22/list-selected.png", fullPage: true });
  await page.getByRole("button", { name: /Select all/ }).click();
  await page.screenshot({ path: "/work/shots/s22/list-all.png" });
  await page.getByRole("button", { name: "Withdraw invitation…" }).click();
  await page.screenshot({ path: "/work/shots/s22/confirm-withdraw.png", fullPage: true });
  await page.goto(`/waitlists/${waitlist.id}/status/invite?limit=50&verified=true&return=/waitlists/${waitlist.id}`);
  await page.screenshot({ path: "/work/shots/s22/confirm-next.png", fullPage: true });
  const invited = listSignupRows({ scope: { waitlistId: waitlist.id, status: ["invited"] }, offset: 0, limit: 1 })[0]!;
  await page.goto(`/waitlists/${waitlist.id}/signups/${invited.id}`);
  await page.screenshot({ path: "/work/shots/s22/signup.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/waitlists/${waitlist.id}`);
  await page.getByLabel("Select every signup on this page").check();
  await page.screenshot({ path: "/work/shots/s22/phone-list.png", fullPage: false });
});
