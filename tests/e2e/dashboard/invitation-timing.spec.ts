import { expect, test } from "@playwright/test";
import { DAY_MS } from "@/lib/core/time";
import { listAudit } from "@/lib/domain/audit/log";
import { getInvitationEmail } from "@/lib/domain/emails/invitation";
import { runDueWork } from "@/lib/domain/scheduler/due-work";
import { getSignup, listSignupRows } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { baseURL, insertSignups, signIn, unique } from "../support/support";

// Expiry and reminders in the dashboard: an admin sets what expiry does and the reminder on the
// invitation email's page; the signup's page says when its invitation expires, and its history
// shows the reminder and the expiry once the scheduler's work (run here as of later instants: the
// controllable clock) has done them.

test("an admin sets expiry and reminder; the signup's page shows 'expires in', then the reminder and the expiry in its history", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Timed list"), website: "https://timed.example" });
  const tag = waitlist.id.slice(0, 6);
  await insertSignups(
    waitlist.id,
    ["first", "second", "third"].map((name, index) => ({ email: `${name}.${tag}@example.com`, verified: true, referral: false, customInputs: [], createdAt: new Date(Date.UTC(2026, 0, 1 + index)) })),
  );

  await page.goto(`/waitlists/${waitlist.id}/email`);
  await page.getByLabel("Days an invite link stays good").fill("3");
  await expect(page.getByLabel("When an invitation expires")).toHaveValue("requeue");
  await page.getByLabel("Reminder, days before expiry").fill("1");
  await page.getByLabel("Reminder subject").fill("Hurry, {{waitlist.name}}");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("done-notice")).toContainText("Invitation email saved");
  expect(await getInvitationEmail(waitlist.id)).toMatchObject({ inviteExpiryDays: 3, onInviteExpiry: "requeue", reminderDaysBefore: 1, reminderSubject: "Hurry, {{waitlist.name}}" });
  expect((await listAudit({ action: "waitlist.invitation_email", actor: admin.id, limit: 1 }))[0]!.summary).toBe("invite links good for 3 days; reminder 1 day before expiry; reminder subject changed");
  await expect(page.getByLabel("Reminder, days before expiry")).toHaveValue("1");

  // A reminder that would not come after the invitation, an unknown outcome, an unknown placeholder: refused, nothing saved.
  for (const [form, message] of [
    [{ invite_expiry: "3", remind_days: "3" }, "fewer days than the invite links' 3"],
    [{ invite_expiry: "3", on_invite_expiry: "delete" }, "must be requeue"],
    [{ invite_expiry: "3", reminder_subject: "{{nope}}" }, "unknown placeholder {{nope}}"],
  ] as const) {
    const refused = await page.request.post(`/waitlists/${waitlist.id}/email/save`, { form: { subject: "Hi", body: "Hello", ...form }, headers: { origin: baseURL }, maxRedirects: 0 });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain(message);
  }
  expect(await getInvitationEmail(waitlist.id)).toMatchObject({ reminderDaysBefore: 1, onInviteExpiry: "requeue", reminderSubject: "Hurry, {{waitlist.name}}" });

  const third = (await listSignupRows({ scope: { waitlistId: waitlist.id, emailContains: "third." }, offset: 0, limit: 1 }))[0]!;
  await applyStatusAction({ keyId: admin.id, keyName: "tests" }, { action: "invite", selection: { waitlistId: waitlist.id, ids: [third.id] } });
  const invitedAt = (await getSignup(waitlist.id, third.id))!.statusChangedAt!.getTime();
  // The list says it beside the status ("Invited, expires in 3 days"); the waiting rows say nothing of it.
  await page.goto(`/waitlists/${waitlist.id}`);
  const thirdRow = page.getByRole("row").filter({ hasText: third.email });
  await expect(thirdRow.getByTestId("invitation-expiry")).toHaveText("expires in 3 days");
  await expect(page.getByTestId("invitation-expiry")).toHaveCount(1);
  await page.goto(`/waitlists/${waitlist.id}/signups/${third.id}`);
  await expect(page.getByTestId("signup-status")).toContainText("Invited since");
  await expect(page.getByTestId("signup-invite-expiry")).toHaveText("(expires in 3 days)");

  // The scheduler's work as of the reminder's day, then as of the expiry.
  expect(await runDueWork(invitedAt + 2 * DAY_MS)).toMatchObject({ reminded: 1 });
  expect(await runDueWork(invitedAt + 3 * DAY_MS)).toMatchObject({ expired: 1 });
  await page.reload();
  const history = page.getByTestId("status-history").getByRole("listitem");
  await expect(history.locator("span")).toHaveText(["Signed up", "Invited", "Reminder sent", "Invitation expired"]);
  await expect(page.getByTestId("signup-status")).toContainText("Waiting");
  await expect(page.getByTestId("signup-invite-expiry")).toHaveCount(0);
  // At the front of the line, ahead of the two who waited.
  await expect(page.getByTestId("signup-position")).toHaveText("1");
});
