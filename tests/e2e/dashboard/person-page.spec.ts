import { existsSync, readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { listAudit } from "@/lib/domain/audit/log";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { signupEvents } from "@/lib/domain/events";
import { joinWaitlist } from "@/lib/domain/joining/join";
import type { personalDataOf } from "@/lib/domain/people/personal-data";
import { getSignup } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { signLinkToken } from "@/lib/domain/verification/link-token";
import { expectNoAxeViolations } from "../support/axe";
import { openWaitlist, signupsOf, submitJoinForm } from "../support/join-fixtures";
import { startSmtpInbox, type SmtpInbox } from "../support/smtp-inbox";
import { unique } from "../support/support";
import { startTestServer, type TestServer } from "../support/test-server";
import { eventually } from "../support/webhook-receiver";

// Issue 31, item 2: each person's own page (/join/{id}/me), against a server of its own with a real
// SMTP server, so that the page is opened from the link of a real email and an erasure is checked on
// the server's own database files.

const PORT_OFFSET = 41;
const publicUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + PORT_OFFSET}`;

let server: TestServer;
let inbox: SmtpInbox;

test.beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    portOffset: PORT_OFFSET,
    name: "person-page",
    followRunEngine: true,
    env: { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", DELIVERY_POLL: "50ms", SMTP_URL: inbox.url, MAIL_FROM: "Launch <launch@example.com>", PUBLIC_URL: publicUrl },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await inbox?.close();
});

const FIELDS = [
  { label: "Company", type: "text" as const, required: true },
  { label: "Role", type: "choice" as const, options: ["Founder", "Engineer"], required: false },
];

/** An address no other test uses, in lower case (the mailer writes it so). */
const address = (label: string) => `${unique(label).replace(/\W/g, "").toLowerCase()}@person.example`;

/** The link to the person's own page in the newest email to `to` (waiting for it). */
async function personLinkFor(to: string, subject?: string): Promise<string> {
  const matching = () => inbox.messages.filter((message) => message.to === to && (subject === undefined || message.data.includes(`Subject: ${subject}`)));
  await eventually(`an email to ${to}`, () => matching().length > 0, 30_000);
  const link = new RegExp(`${publicUrl}/join/[0-9a-f-]{36}/me\\?t=\\S+`).exec(matching().at(-1)!.data)?.[0];
  expect(link, "the email links to the person's page").toBeDefined();
  return link!;
}

/** Every byte of the server's database files (the file, its WAL and -shm), in lower case. */
function onDisk(): string {
  return ["", "-wal", "-shm"]
    .map((suffix) => `${server.databasePath}${suffix}`)
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path).toString("latin1").toLowerCase())
    .join("\n");
}

async function joinWithAnswers(page: Page, waitlistId: string, email: string, company: string) {
  await page.goto(`${server.url}/join/${waitlistId}`);
  await page.getByLabel("Company").fill(company);
  await submitJoinForm(page, email);
}

test("a person opens their page from the email, shares and copies their link, downloads their data, edits an answer, and leaves the list", async ({ browser }) => {
  const db = server.db();
  const waitlist = await openWaitlist({ verification: true, fields: FIELDS }, db);
  const email = address("ada");
  const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(server.url)) elsewhere.push(request.url());
  });
  await joinWithAnswers(page, waitlist.id, email, "Acme");
  const [signup] = await signupsOf(waitlist.id, db);

  // The confirmation email links to the page.
  const link = await personLinkFor(email, "Confirm your place");
  expect(link.startsWith(`${publicUrl}/join/${waitlist.id}/me?t=`)).toBe(true);
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");
  await expect(page.getByTestId("person-status")).toContainText(email);
  await expect(page.getByTestId("person-status")).toContainText("Waiting (waiting for your turn)");
  await expect(page.getByTestId("person-status")).toContainText("not yet: follow the link in the email we sent you");
  const referralLink = await page.getByRole("textbox", { name: "Your referral link" }).inputValue();
  expect(referralLink).toMatch(new RegExp(`^${server.url}/join/${waitlist.id}\\?ref=[a-z0-9]{10}$`));

  // Copy, then the plain share links (each service's own page, opened only when clicked).
  await page.getByRole("button", { name: "Copy your referral link" }).click();
  await expect(page.getByText("Copied to the clipboard")).toBeAttached();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(referralLink);
  const share = page.getByTestId("share-links");
  const encoded = encodeURIComponent(referralLink);
  await expect(share.getByRole("link", { name: "X" })).toHaveAttribute("href", new RegExp(`^https://x\\.com/intent/post\\?.*url=${encoded.replace(/[.?]/g, "\\$&")}`));
  await expect(share.getByRole("link", { name: "LinkedIn" })).toHaveAttribute("href", `https://www.linkedin.com/sharing/share-offsite/?url=${encoded}`);
  await expect(share.getByRole("link", { name: "WhatsApp" })).toHaveAttribute("href", new RegExp(`^https://wa\\.me/\\?text=.*${encoded.replace(/[.?]/g, "\\$&")}$`));
  await expect(share.getByRole("link", { name: "Email" })).toHaveAttribute("href", /^mailto:\?subject=/);
  expect(elsewhere, "no request to any other site").toEqual([]);

  // A friend joins through the link: counted once they confirm, and the page says why not yet.
  const friend = address("friend");
  await joinWaitlist({ waitlistId: waitlist.id, email: friend, customInputs: [{ label: "Company", value: "Friend Co" }], referralCode: new URL(referralLink).searchParams.get("ref")! }, db);
  await page.reload();
  await expect(page.getByTestId("referral-counts")).toHaveText("1 friend joined through your link; 0 counted.1 friend: not counted yet: the address is not confirmed");
  await expectNoAxeViolations(page, "the person's page");
  await page.screenshot({ path: "/tmp/person-page-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "/tmp/person-page-phone.png", fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Download my data: everything about them, other people only as counts.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download my data" }).click()]);
  const data = JSON.parse(readFileSync((await download.path())!, "utf8")) as NonNullable<Awaited<ReturnType<typeof personalDataOf>>>;
  expect(download.suggestedFilename()).toBe(`my-data-${waitlist.id}.json`);
  expect(data.signup).toMatchObject({ id: String(signup!.id), email, status: "waiting", position: 1 });
  expect(data.answers).toEqual([{ label: "Company", value: "Acme" }]);
  expect(data.referral_code).toBe(new URL(referralLink).searchParams.get("ref"));
  expect(data.referrals_made).toEqual({ joined: 1, counted: 0, notCounted: { unverified: 1 } });
  expect(data.verification).toEqual({ verified: false, verified_at: null });
  expect(data.events.map((event) => event.type)).toEqual(["signup.created"]);
  expect(data.emails).toEqual([expect.objectContaining({ kind: "signup.created", subject: `Confirm your place on the ${waitlist.name} waitlist` })]);
  expect(JSON.stringify(data)).not.toContain(friend);

  // Editing an answer, without JavaScript: the form's rules, an event and an audit row as the person.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(link);
  await expect(plain.getByRole("textbox", { name: "Your referral link" })).toHaveValue(referralLink);
  await expect(plain.getByRole("button", { name: "Copy your referral link" })).toHaveCount(0);
  await plain.getByLabel("Company").fill("Acme Rockets");
  await plain.getByLabel("Role").selectOption("Founder");
  await plain.getByRole("button", { name: "Save my answers" }).click();
  await expect(plain.getByTestId("answers-saved")).toHaveText("Your answers are saved.");
  expect((await getSignup(waitlist.id, signup!.id, db))!.customInputs).toEqual([
    { label: "Company", value: "Acme Rockets" },
    { label: "Role", value: "Founder" },
  ]);
  expect((await signupEvents(signup!.id, db)).map((event) => event.type)).toEqual(["signup.created", "signup.updated"]);
  expect((await listAudit({ action: "signup.update", limit: 10 }, db)).find((row) => row.target === waitlist.id)).toMatchObject({ actor: "person", summary: `signup ${signup!.id} changed 2 answers on its own page` });
  // A bad edit is refused with the form's own words, and changes nothing.
  await plain.getByLabel("Company").fill("");
  await plain.getByRole("button", { name: "Save my answers" }).click();
  await expect(plain.getByTestId("answers-error")).toHaveText('Not saved: The field "Company" is required.');
  await expect(plain.getByLabel("Company")).toHaveValue("Acme Rockets");
  expect((await getSignup(waitlist.id, signup!.id, db))!.customInputs).toEqual([
    { label: "Company", value: "Acme Rockets" },
    { label: "Role", value: "Founder" },
  ]);
  expect(await signupEvents(signup!.id, db)).toHaveLength(2);
  await noScript.close();

  // Leaving: the admin's erasure, confirmed by a button; then the address is gone from SQLite's files
  // (PostgreSQL's autovacuum reclaims a deleted row's space in its own time: lib/sqlite/checkpoint.ts).
  const onSqlite = server.engine === "sqlite";
  if (onSqlite) expect(onDisk()).toContain(email);
  await page.getByRole("link", { name: "Leave the list…" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Leave the ${waitlist.name} waitlist?`);
  await expectNoAxeViolations(page, "the leave page");
  await page.screenshot({ path: "/tmp/person-leave.png" });
  expect(await getSignup(waitlist.id, signup!.id, db)).toBeDefined();
  await page.getByRole("button", { name: "Leave the list and erase my data" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You left the waitlist");
  await expectNoAxeViolations(page, "the page after leaving");
  expect(await getSignup(waitlist.id, signup!.id, db)).toBeUndefined();
  expect((await listAudit({ action: "signup.erase", limit: 10 }, db))[0]).toMatchObject({ actor: "person", summary: "erased 1 signup from 1 waitlist" });
  if (onSqlite) await expect.poll(() => onDisk().includes(email), { timeout: 15_000, intervals: [100, 250, 500] }).toBe(false);
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not on this list");
  await expect(page.locator("body")).not.toContainText(email);
  await context.close();
});

test("asking for a new link by address answers the same for a known and an unknown address, and emails only the known one", async ({ browser }) => {
  const db = server.db();
  const waitlist = await openWaitlist({ verification: false }, db);
  const known = address("known");
  const stranger = address("stranger");
  await joinWaitlist({ waitlistId: waitlist.id, email: known, customInputs: [] }, db);
  const ask = async (email: string) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/join/${waitlist.id}`);
    await page.getByText("Already joined? Get your link").click();
    await page.getByLabel("The address you joined with").fill(email);
    await page.getByRole("button", { name: "Email me my link" }).click();
    await expect(page.getByTestId("link-answer")).toBeVisible();
    const shown = { url: page.url(), text: await page.locator("main").innerText() };
    if (email === known) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: "/tmp/person-get-link-phone.png", fullPage: true });
    }
    await context.close();
    return shown;
  };
  const answeredKnown = await ask(known);
  const answeredStranger = await ask(stranger);
  expect(answeredKnown).toEqual(answeredStranger);
  expect(answeredKnown.text).toContain("If this address is on the list, we've emailed it a link to its page.");
  const link = await personLinkFor(known, `Your link to the ${waitlist.name} waitlist`);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(inbox.messages.filter((message) => message.to === stranger)).toEqual([]);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");
  await page.goto(answeredKnown.url);
  await expect(page.getByTestId("link-answer")).toBeVisible();
  await expectNoAxeViolations(page, "the join page with its answer about the link");
  // Asked again at once: the same answer, no second email (one a minute per signup).
  await ask(known);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(inbox.messages.filter((message) => message.to === known)).toHaveLength(1);
  // From another site the form is refused.
  const forged = await page.request.post(`${server.url}/join/${waitlist.id}/link`, { form: { email: known }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  await context.close();
});

test("the invitation email links to the person's page too; the joined page after the form does", async ({ page }) => {
  const db = server.db();
  const waitlist = await openWaitlist({ verification: false }, db);
  await updateInvitationEmail("cli", waitlist.id, { enabled: true }, db);
  const email = address("invited");
  await page.goto(`${server.url}/join/${waitlist.id}`);
  await submitJoinForm(page, email);
  await page.getByRole("link", { name: /Open your own page/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: [email] } }, db);
  await page.goto(await personLinkFor(email, `You're invited to ${waitlist.name}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Your place on the ${waitlist.name} waitlist`);
  await expect(page.getByTestId("person-status")).toContainText("Invited (invited: your turn has come)");
});

test("a forged or expired link opens nothing and its forms are refused; a cross-site POST is refused and changes nothing", async ({ page }) => {
  const db = server.db();
  const waitlist = await openWaitlist({ verification: false, fields: FIELDS }, db);
  const email = address("guarded");
  const { signup } = await joinWaitlist({ waitlistId: waitlist.id, email, customInputs: [{ label: "Company", value: "Guarded" }] }, db);
  const good = await signLinkToken({ purpose: "person", waitlistId: waitlist.id, signupId: signup.id, expiresAt: new Date(Date.now() + 60_000) }, db);
  const expired = await signLinkToken({ purpose: "person", waitlistId: waitlist.id, signupId: signup.id, expiresAt: new Date(Date.now() - 1_000) }, db);
  const joinedPurpose = await signLinkToken({ purpose: "joined", waitlistId: waitlist.id, signupId: signup.id, expiresAt: new Date(Date.now() + 60_000) }, db);
  const [payload, signature] = good.split(".");
  const forged = `${Buffer.from(Buffer.from(payload!, "base64url").toString().replace(`.${signup.id}.`, `.${signup.id + 1}.`)).toString("base64url")}.${signature}`;

  for (const [token, heading] of [
    [forged, "This link does not work"],
    [joinedPurpose, "This link does not work"],
    [expired, "This link has expired"],
  ] as const) {
    await page.goto(`${server.url}/join/${waitlist.id}/me?t=${encodeURIComponent(token)}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expect(page.locator("body")).not.toContainText(email);
    const download = await page.request.get(`${server.url}/join/${waitlist.id}/me/download?t=${encodeURIComponent(token)}`);
    expect(download.status()).toBe(token === expired ? 410 : 400);
    const answers = await page.request.post(`${server.url}/join/${waitlist.id}/me/answers`, { form: { t: token, field_0: "Hijacked" }, headers: { origin: server.url }, maxRedirects: 0 });
    expect(answers.status()).toBe(token === expired ? 410 : 400);
    const leave = await page.request.post(`${server.url}/join/${waitlist.id}/me/leave/confirm`, { form: { t: token }, headers: { origin: server.url }, maxRedirects: 0 });
    expect(leave.status()).toBe(token === expired ? 410 : 400);
  }
  await expectNoAxeViolations(page, "an expired link's page");

  // The right token from another site: refused before anything is read.
  for (const path of ["me/answers", "me/leave/confirm"]) {
    const crossSite = await page.request.post(`${server.url}/join/${waitlist.id}/${path}`, { form: { t: good, field_0: "Hijacked" }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
    expect(crossSite.status()).toBe(403);
  }
  expect((await getSignup(waitlist.id, signup.id, db))!.customInputs).toEqual([{ label: "Company", value: "Guarded" }]);
  expect((await signupEvents(signup.id, db)).map((event) => event.type)).toEqual(["signup.created"]);
});
