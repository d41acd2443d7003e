import { expect, test } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { DEFAULT_REMINDER_BODY, DEFAULT_REMINDER_SUBJECT, getInvitationEmail } from "@/lib/domain/emails/invitation";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { baseURL, hydrated, insertSignups, signIn, unique } from "../support/support";

// A waitlist's invitation email in the dashboard: the template, a preview against a real signup of the
// edited or the saved template, unknown placeholders refused, and what the page says without SMTP_URL.

test("an admin edits the template, previews it against a signup, saves it; an unknown placeholder is refused", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Email list"), website: "https://email.example" });
  const tag = waitlist.id.slice(0, 6);
  await insertSignups(waitlist.id, [
    { email: `older.${tag}@example.com`, verified: true, referral: false, customInputs: [{ label: "Company", value: "Initech" }], createdAt: new Date(Date.UTC(2026, 0, 1)) },
    { email: `newest.${tag}@example.com`, verified: true, referral: false, customInputs: [{ label: "Company", value: "Acme" }], createdAt: new Date(Date.UTC(2026, 0, 2)) },
  ]);
  const older = (await listSignupRows({ scope: { waitlistId: waitlist.id, emailContains: "older." }, offset: 0, limit: 1 }))[0]!;

  await page.goto(`/waitlists/${waitlist.id}`);
  await page.getByRole("link", { name: "Invitation email" }).click();
  await expect(page).toHaveURL(`/waitlists/${waitlist.id}/email`);
  // No SMTP_URL on the test server: the page says what happens and how to configure it.
  await expect(page.getByTestId("smtp-unset")).toContainText("not sent: email is not configured");
  await expect(page.getByTestId("smtp-unset").getByRole("link", { name: "Configuration" })).toHaveAttribute("href", "/docs/configuration");
  // The saved (default) template, previewed against the newest signup.
  await expect(page.getByTestId("email-preview")).toContainText("Preview of the saved template");
  await expect(page.getByTestId("preview-to")).toHaveText(`newest.${tag}@example.com`);
  await expect(page.getByTestId("preview-subject")).toHaveText(`You're invited to ${waitlist.name}`);

  await page.getByLabel("Subject", { exact: true }).fill("Welcome, {{email}}");
  await page.getByLabel("Body (plain text)", { exact: true }).fill("Hello from {{waitlist.name}}.\nYour company: {{input.Company}}.\n{{waitlist.website}}");
  await page.getByLabel("Preview for signup id").fill(String(older.id));
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("email-preview")).toContainText("Preview of the edited template");
  await expect(page.getByTestId("preview-to")).toHaveText(`older.${tag}@example.com`);
  await expect(page.getByTestId("preview-subject")).toHaveText(`Welcome, older.${tag}@example.com`);
  await expect(page.getByTestId("preview-text")).toHaveText(`Hello from ${waitlist.name}.\nYour company: Initech.\n${waitlist.website}`);
  // Nothing saved by a preview.
  expect(await getInvitationEmail(waitlist.id)).toMatchObject({ enabled: false, subject: "You're invited to {{waitlist.name}}" });

  await page.getByLabel("Send an invitation email to each signup invited").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("done-notice")).toContainText("Invitation email saved");
  expect(await getInvitationEmail(waitlist.id)).toEqual({
    waitlistId: waitlist.id,
    enabled: true,
    subject: "Welcome, {{email}}",
    body: "Hello from {{waitlist.name}}.\nYour company: {{input.Company}}.\n{{waitlist.website}}",
    inviteUrl: null,
    inviteExpiryDays: 14,
    // The expiry and reminder fields, as they were: saved with the form, unchanged.
    onInviteExpiry: "requeue",
    reminderDaysBefore: null,
    reminderSubject: DEFAULT_REMINDER_SUBJECT,
    reminderBody: DEFAULT_REMINDER_BODY,
  });
  expect((await listAudit({ action: "waitlist.invitation_email", actor: admin.id, limit: 1 }))[0]).toMatchObject({ target: waitlist.id, summary: "invitation emails on; subject changed; body changed" });
  await expect(page.getByLabel("Send an invitation email to each signup invited")).toBeChecked();
  await expect(page.getByTestId("preview-text")).toHaveText(`Hello from ${waitlist.name}.\nYour company: Acme.\n${waitlist.website}`);

  // An unknown placeholder: the preview says which, and saving is a 400 that names it.
  await page.getByLabel("Subject", { exact: true }).fill("Hi {{first_name}}");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("preview-error")).toContainText("unknown placeholder {{first_name}}");
  const refused = await page.request.post(`/waitlists/${waitlist.id}/email/save`, { form: { subject: "Hi {{first_name}}", body: "Hello" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("Invalid subject: has an unknown placeholder {{first_name}}");
  expect((await getInvitationEmail(waitlist.id)).subject).toBe("Welcome, {{email}}");
  // An unknown signup id is said so.
  await page.goto(`/waitlists/${waitlist.id}/email?signup=999999999`);
  await expect(page.getByTestId("preview-error")).toHaveText("This waitlist has no signup with the id 999999999.");
  // A waitlist without signups has nothing to preview, and says so.
  const empty = await createWaitlist({ name: unique("Empty email list"), website: "https://empty.example" });
  await page.goto(`/waitlists/${empty.id}/email`);
  await expect(page.getByText("This waitlist has no signup yet to preview against.")).toBeVisible();
  await expect(page.getByTestId("email-preview")).toHaveCount(0);
});

test("an admin sets the invite links' sign-up URL and lifetime; the preview shows {{invite.url}}; a bad URL or lifetime is refused", async ({ page, context }) => {
  const admin = await signIn(context, ["waitlist:admin"]);
  const waitlist = await createWaitlist({ name: unique("Invite links list"), website: "https://links.example" });
  await insertSignups(waitlist.id, [{ email: `ada.${waitlist.id.slice(0, 6)}@example.com`, verified: true, referral: false, customInputs: [], createdAt: new Date(Date.UTC(2026, 0, 1)) }]);

  await page.goto(`/waitlists/${waitlist.id}/email`);
  await hydrated(page, "#email-body");
  await page.getByLabel("Body (plain text)", { exact: true }).fill("Sign up: {{invite.url}}\nYour page: {{person.url}}");
  await page.getByLabel("Sign-up URL").fill("https://app.example/signup");
  await page.getByLabel("Days an invite link stays good").fill("5");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("done-notice")).toContainText("Invitation email saved");
  expect(await getInvitationEmail(waitlist.id)).toMatchObject({ inviteUrl: "https://app.example/signup", inviteExpiryDays: 5, body: "Sign up: {{invite.url}}\nYour page: {{person.url}}" });
  expect((await listAudit({ action: "waitlist.invitation_email", actor: admin.id, limit: 1 }))[0]).toMatchObject({ summary: "body changed; invite URL https://app.example/signup; invite links good for 5 days" });
  await expect(page.getByLabel("Sign-up URL")).toHaveValue("https://app.example/signup");
  await expect(page.getByLabel("Days an invite link stays good")).toHaveValue("5");
  // The preview shows where the link goes; the token itself is made when the signup is invited.
  await expect(page.getByTestId("preview-text")).toContainText("Sign up: https://app.example/signup?invite=TOKEN-MADE-WHEN-INVITED");

  for (const [form, message] of [
    [{ invite_url: "ftp://app.example", invite_expiry: "5" }, "Invalid invite_url"],
    [{ invite_url: "https://app.example/signup", invite_expiry: "0" }, "Invalid invite_expiry"],
    [{ invite_url: "https://app.example/signup", invite_expiry: "soon" }, "Invalid invite_expiry"],
  ] as const) {
    const refused = await page.request.post(`/waitlists/${waitlist.id}/email/save`, { form: { subject: "Hi", body: "Hello", ...form }, headers: { origin: baseURL }, maxRedirects: 0 });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain(message);
  }
  expect(await getInvitationEmail(waitlist.id)).toMatchObject({ inviteUrl: "https://app.example/signup", inviteExpiryDays: 5, subject: "You're invited to {{waitlist.name}}" });
});
