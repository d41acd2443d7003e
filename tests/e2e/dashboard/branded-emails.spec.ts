import { expect, test, type Browser } from "@playwright/test";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { listAudit } from "@/lib/domain/audit/log";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { ADMIN_ROLE, createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { expectNoAxeViolations, SWEEP_TAGS } from "../support/axe";
import { openWaitlist, submitJoinForm } from "../support/join-fixtures";
import { mimeParts, startSmtpInbox, type SmtpInbox } from "../support/smtp-inbox";
import { baseURL, insertSignups as insertSharedSignups, signIn, unique } from "../support/support";
import { startTestServer, type TestServer } from "../support/test-server";
import { eventually } from "../support/webhook-receiver";

// Issue 32, item 6: emails in the list's brand. Against a server of its own with a real SMTP server:
// an invitation sent from "Invite the next N" (whose confirmation says how many emails go out) and a
// confirmation email arrive as multipart/alternative, text and HTML, the HTML in the list's brand with
// every answer escaped; the editor previews the HTML and sends a test to the admin.

const PORT_OFFSET = 99;
const publicUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + PORT_OFFSET}`;

let server: TestServer;
let inbox: SmtpInbox;

test.beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    portOffset: PORT_OFFSET,
    name: "branded-emails",
    env: { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", DELIVERY_POLL: "50ms", SMTP_URL: inbox.url, MAIL_FROM: "Launch <launch@example.com>", PUBLIC_URL: publicUrl },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await inbox?.close();
});

/** A browser signed in as an admin of this server. */
async function adminPage(browser: Browser) {
  const key = await createApiKey({ name: unique("emails admin"), roles: [ADMIN_ROLE] }, server.db());
  const context = await browser.newContext();
  await context.addCookies([{ name: SESSION_COOKIE, value: (await createSession(key.id, server.db())).token, url: server.url, httpOnly: true, sameSite: "Lax" }]);
  return { page: await context.newPage(), key };
}

/** The newest email to `to` (waiting for it), with its text and HTML parts. */
async function emailTo(to: string) {
  await eventually(`an email to ${to}`, () => inbox.messages.some((message) => message.to === to), 30_000);
  const { data } = inbox.messages.filter((message) => message.to === to).at(-1)!;
  const parts = mimeParts(data);
  return { data, parts, text: parts.find((part) => part.contentType === "text/plain")?.body ?? "", html: parts.find((part) => part.contentType === "text/html")?.body ?? "" };
}

test("'Invite the next N' says how many emails go out; each invitation arrives as text and HTML in the list's brand, every answer escaped", async ({ browser }) => {
  const db = server.db();
  const waitlist = await createWaitlist({ name: unique("Brand <list>"), website: "https://brand.example" }, db);
  await updateJoinSettings(waitlist.id, { accentColor: "#0f766e" }, "cli", db);
  await updateInvitationEmail("cli", waitlist.id, { enabled: true, subject: "You're in, {{email}}", body: "Hello {{input.Company}},\n\nYour spot came up:\n\n{{invite.url}}\n", inviteUrl: "https://app.example/signup" }, db);
  const tag = Date.now().toString(36);
  const hostile = `tom&jerry.${tag}@brand.example`;
  const plain = `ada.${tag}@brand.example`;
  insertSignups(
    waitlist.id,
    [
      { email: hostile, verified: true, referral: false, customInputs: JSON.stringify([{ label: "Company", value: `<script>alert("x")</script> & "Co"` }]), createdAt: Date.UTC(2026, 0, 1) },
      { email: plain, verified: true, referral: false, customInputs: JSON.stringify([{ label: "Company", value: "Initech" }]), createdAt: Date.UTC(2026, 0, 2) },
    ],
    db,
  );

  const { page } = await adminPage(browser);
  await page.goto(`${server.url}/waitlists/${waitlist.id}`);
  await page.getByRole("spinbutton", { name: /Invite the next/ }).fill("5");
  await page.getByRole("button", { name: "Invite next…" }).click();
  await expect(page.getByTestId("emails-note")).toHaveText("This sends 2 invitation emails, one to each signup invited, in the template of Invitation email.");
  await expectNoAxeViolations(page, "the bulk-invite confirmation with its test form");
  // The confirm button is the first stop after the text; below it, a test of exactly this email to oneself (audited), which invites nobody.
  const me = `me.${tag}@admin.example`;
  await page.getByLabel("Your address").fill(me);
  await page.getByRole("button", { name: "Send a test to me" }).click();
  await expect(page.getByTestId("send-test-result")).toContainText(`Test email sent to ${me}: the mail server answered “250`);
  const sample = await emailTo(me);
  expect(sample.data).toContain(`Subject: [Test] You're in, ${me}`);
  expect(sample.text).toContain("Your spot came up:");
  expect((await listAudit({ action: "waitlist.invitation_email_test", limit: 1 }, db))[0]).toMatchObject({ target: waitlist.id, summary: expect.stringContaining(`test invitation email to ${me}: sent`) });
  await expect(page.getByTestId("action-count")).toHaveText("2");
  await page.getByRole("button", { name: "Invite 2 signups" }).click();
  await expect(page).toHaveURL(/done=invited/);

  const email = await emailTo(hostile);
  expect(email.data).toMatch(/^Content-Type: multipart\/alternative;/m);
  expect(email.parts.map((part) => part.contentType)).toEqual(["text/plain", "text/html"]);
  const invite = /https:\/\/app\.example\/signup\?invite=\S+/.exec(email.text)?.[0];
  expect(invite, "the text carries the invite link").toBeDefined();
  expect(email.text).toContain(`Hello <script>alert("x")</script> & "Co",`);
  // The HTML: the brand (name, accent), the invite link as a button, every inserted value escaped.
  expect(email.html).toMatch(/^<!DOCTYPE html>\s*<html lang="en"/);
  expect(email.html).toContain(`<title>You&#39;re in, tom&amp;jerry.${tag}@brand.example</title>`);
  expect(email.html).toContain(waitlist.name.replace("<", "&lt;").replace(">", "&gt;"));
  expect(email.html).toContain("background:#0f766e");
  expect(email.html).toContain(`<a href="${invite}" style="display:inline-block;padding:12px 22px;font-weight:600;font-size:16px;color:#ffffff;text-decoration:none;border-radius:6px">Accept your invitation</a>`);
  expect(email.html).toContain("Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;Co&quot;,");
  expect(email.html).not.toContain("<script");
  // The person's page, in the text's footer, is a link in the HTML too.
  const personLink = new RegExp(`${publicUrl}/join/${waitlist.id}/me\\?t=\\S+`).exec(email.text)?.[0];
  expect(email.html).toContain(`href="${personLink}"`);
  expect((await emailTo(plain)).html).toContain("Hello Initech,");
});

test("the editor previews the HTML in a sandboxed frame beside the text, and sends a test to the admin; a cross-site post is refused", async ({ browser }) => {
  const db = server.db();
  const waitlist = await createWaitlist({ name: unique("Preview list"), website: "https://preview.example" }, db);
  await updateJoinSettings(waitlist.id, { accentColor: "#7c2d12", fields: [{ label: "Company", type: "text", required: false }] }, "cli", db);
  await updateInvitationEmail("cli", waitlist.id, { enabled: true, inviteUrl: "https://app.example/signup", body: "Hi {{input.Company}},\n\n{{invite.url}}\n" }, db);
  insertSignups(waitlist.id, [{ email: `someone.${Date.now().toString(36)}@preview.example`, verified: true, referral: false, customInputs: JSON.stringify([{ label: "Company", value: "Initech" }]), createdAt: Date.UTC(2026, 0, 1) }], db);

  const { page, key } = await adminPage(browser);
  await page.goto(`${server.url}/waitlists/${waitlist.id}/email`);
  const frame = page.getByTestId("preview-html");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(frame).toHaveAttribute("title", "The email as HTML");
  const inside = page.frameLocator('[data-testid="preview-html"]');
  await expect(inside.getByText(waitlist.name).first()).toBeVisible();
  await expect(inside.getByRole("link", { name: "Accept your invitation" })).toHaveAttribute("href", "https://app.example/signup?invite=TOKEN-MADE-WHEN-INVITED");
  await expect(inside.getByText("Hi Initech,")).toBeVisible();
  await expect(page.getByTestId("preview-text")).toHaveText("Hi Initech,\n\nhttps://app.example/signup?invite=TOKEN-MADE-WHEN-INVITED\n");
  await expectNoAxeViolations(page, "the invitation email editor with its HTML preview and the test form", { exclude: '[data-testid="preview-html"]' });
  // The email's own HTML, as a page of its own: WCAG's rules (language, title, link names, contrast); not a web page's landmarks.
  const emailPage = await page.context().newPage();
  await emailPage.setContent((await frame.getAttribute("srcdoc"))!);
  await expectNoAxeViolations(emailPage, "the invitation email's HTML", { tags: SWEEP_TAGS.filter((tag) => tag !== "best-practice") });
  await emailPage.close();

  // The test goes out with the edited (unsaved) template and sample answers.
  const me = `me.${Date.now().toString(36)}@admin.example`;
  await page.getByLabel("Body (plain text)", { exact: true }).fill("Draft for {{input.Company}}\n\n{{invite.url}}");
  await page.getByLabel("Your address").fill(me);
  await page.getByRole("button", { name: "Send a test to me" }).click();
  await expect(page.getByTestId("send-test-result")).toContainText(`Test email sent to ${me}: the mail server answered “250`);
  const email = await emailTo(me);
  expect(email.data).toContain(`Subject: [Test] You're invited to ${waitlist.name}`);
  expect(email.text).toContain("Draft for Sample Company\n\nhttps://app.example/signup?invite=TOKEN-MADE-WHEN-INVITED");
  expect(email.html).toContain(">Accept your invitation</a>");
  expect(email.html).toContain("background:#7c2d12");
  expect((await listAudit({ action: "waitlist.invitation_email_test", limit: 1 }, db))[0]).toMatchObject({ actor: key.name, target: waitlist.id, summary: expect.stringMatching(new RegExp(`^test invitation email to ${me.replace(/\./g, "\\.")}: sent \\(250 `)) });

  // From another site: refused before anything is sent; a bad address: refused naming the field.
  const elsewhere = `evil.${Date.now().toString(36)}@admin.example`;
  const refused = await page.request.post(`${server.url}/waitlists/${waitlist.id}/email/send-test`, { form: { test_to: elsewhere }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(refused.status()).toBe(403);
  const invalid = await page.request.post(`${server.url}/waitlists/${waitlist.id}/email/send-test`, { form: { test_to: "not an address" }, headers: { origin: server.url }, maxRedirects: 0 });
  expect(invalid.status()).toBe(400);
  expect(await invalid.text()).toContain("Invalid test_to");
  expect(inbox.messages.some((message) => message.to === elsewhere)).toBe(false);
  expect((await listAudit({ action: "waitlist.invitation_email_test", limit: 10 }, db)).filter((entry) => entry.target === waitlist.id)).toHaveLength(1);
});

test("a confirmation email arrives as text and HTML, its link a button in the list's brand", async ({ page }) => {
  const db = server.db();
  const waitlist = await openWaitlist({ verification: true, accentColor: "#0f766e" }, db);
  const address = `${Date.now().toString(36)}.confirm@brand.example`;
  await page.goto(`${server.url}/join/${waitlist.id}`);
  await submitJoinForm(page, address);
  const email = await emailTo(address);
  expect(email.parts.map((part) => part.contentType)).toEqual(["text/plain", "text/html"]);
  const confirm = new RegExp(`${publicUrl}/join/${waitlist.id}/confirm\\?token=\\S+`).exec(email.text)?.[0];
  expect(email.html).toContain(`<a href="${confirm}" style="display:inline-block;padding:12px 22px;font-weight:600;font-size:16px;color:#ffffff;text-decoration:none;border-radius:6px">Confirm your address</a>`);
  expect(email.html).toContain(waitlist.name);
});

test("the bulk-invite confirmation says that no email goes out, and why: invitation emails off, or no mail server", async ({ browser, context, page }) => {
  // Invitation emails off (this server has a mail server).
  const db = server.db();
  const off = await createWaitlist({ name: unique("Emails off"), website: "https://off.example" }, db);
  insertSignups(off.id, [{ email: `off.${Date.now().toString(36)}@off.example`, verified: true, referral: false, customInputs: "[]" }], db);
  const admin = await adminPage(browser);
  await admin.page.goto(`${server.url}/waitlists/${off.id}/status/invite?limit=10`);
  await expect(admin.page.getByTestId("emails-note")).toHaveText("No invitation email will be sent: invitation emails are off for this list (turn them on under Invitation email).");
  await expect(admin.page.getByRole("button", { name: "Send a test to me" })).toHaveCount(0);

  // Invitation emails on, but the shared test server has no SMTP_URL.
  await signIn(context, ["waitlist:admin"]);
  const unset = await createWaitlist({ name: unique("No SMTP"), website: "https://nosmtp.example" });
  await updateInvitationEmail("cli", unset.id, { enabled: true });
  await insertSharedSignups(unset.id, [{ email: `unset.${Date.now().toString(36)}@nosmtp.example`, verified: true, referral: false, customInputs: [], createdAt: new Date() }]);
  await page.goto(`${baseURL}/waitlists/${unset.id}/status/invite?limit=10`);
  await expect(page.getByTestId("emails-note")).toHaveText("No invitation email will be sent: email is not configured (SMTP_URL), so each is kept in the delivery log as not sent.");
  await expect(page.getByRole("button", { name: "Send a test to me" })).toHaveCount(0);
  // And a test email without a mail server: refused, saying why.
  const test409 = await page.request.post(`${baseURL}/waitlists/${unset.id}/email/send-test`, { form: { test_to: "me@nosmtp.example" }, headers: { origin: baseURL }, maxRedirects: 0 });
  expect(test409.status()).toBe(409);
  expect(await test409.text()).toContain("Email is not configured: set SMTP_URL and MAIL_FROM");
});
