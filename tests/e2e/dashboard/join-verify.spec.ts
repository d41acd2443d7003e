import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import { signupEvents } from "@/lib/domain/events";
import { getSignup } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { eventually } from "../support/webhook-receiver";
import { joinThroughForm, openWaitlist, signupsOf, submitJoinForm } from "../support/join-fixtures";
import { seedSignups } from "../support/seed-signups";
import { startTestServer, type TestServer } from "../support/test-server";

// Email verification end to end: a server of its own with a real SMTP server (the smtp-server
// package); joining queues the confirmation email through the outbox, its link sets `verified`
// (event signup.verified) once, and "send the email again" (on the page the email links to) is
// rate-limited. An address already on the list gets the page a new one gets, and its owner an email
// with a link to their page.

const PORT_OFFSET = 91;
const publicUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + PORT_OFFSET}`;

/** A message's text part as sent (quoted-printable undone). */
function decoded(data: string): string {
  return data.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

let server: TestServer | undefined;
let smtp: SMTPServer;
const messages: { to: string; data: string }[] = [];

/** The first link of a message to this address (and subject) to a page of the waitlist. */
function linkIn(to: string, subject: string, path: "confirm" | "joined", waitlistId: string): string {
  const message = messages.find((each) => each.to === to && each.data.includes(`Subject: ${subject}`))!;
  return new RegExp(`${publicUrl}/join/${waitlistId}/${path}\\?\\w+=\\S+`).exec(message.data)![0];
}

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (data += chunk));
      stream.on("end", () => {
        messages.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(","), data: decoded(data) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  server = await startTestServer({
    portOffset: PORT_OFFSET,
    name: "join-verify",
    followRunEngine: true,
    env: { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", DELIVERY_POLL: "50ms", SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Launch <launch@example.com>", PUBLIC_URL: publicUrl },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

test("the confirmation link of the email opens a page whose button sets verified once; the second time says already confirmed", async ({ page }) => {
  const db = server!.db();
  const waitlist = await openWaitlist({ verification: true }, db);
  await page.goto(`${server!.url}/join/${waitlist.id}`);
  await submitJoinForm(page, "Ada.Verify@Example.com");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your inbox");
  const [signup] = await signupsOf(waitlist.id, db);
  expect(signup!.verified).toBe(false);

  // Sent to the address as typed (the mailer writes its domain in lower case).
  await eventually("the confirmation email", () => messages.some((message) => message.to === "Ada.Verify@example.com"), 30_000);
  const message = messages.find((each) => each.to === "Ada.Verify@example.com")!;
  expect(message.data).toContain(`Subject: Confirm your place on the ${waitlist.name} waitlist`);
  expect(message.data).toMatch(/^From: Launch <launch@example\.com>/m);
  const link = new RegExp(`${publicUrl}/join/${waitlist.id}/confirm\\?token=\\S+`).exec(message.data)![0];

  // A link cut short does nothing.
  await page.goto(link.slice(0, -3));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link does not work");
  expect((await getSignup(waitlist.id, signup!.id, db))!.verified).toBe(false);

  // Opening the link changes nothing (a mail scanner opens links too): its button confirms.
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm your address");
  expect((await getSignup(waitlist.id, signup!.id, db))!.verified).toBe(false);
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your address is confirmed");
  expect((await getSignup(waitlist.id, signup!.id, db))!.verified).toBe(true);
  expect((await signupEvents(signup!.id, db)).map((event) => event.type)).toEqual(["signup.created", "signup.verified"]);
  // The confirmed page links to the person's own page; so does the email.
  await page.getByRole("link", { name: "See your place in line and your referral link" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");
  await expect(page.getByLabel("Your referral link")).toHaveValue(/\?ref=[a-z0-9]{10}$/);
  await expect(page.getByTestId("verify-notice")).toHaveCount(0);
  await page.goto(linkIn("Ada.Verify@example.com", `Confirm your place on the ${waitlist.name} waitlist`, "joined", waitlist.id));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Already confirmed");
  // The form posted again (a second tab, a double click) confirms nothing twice; from another site it is refused.
  const again = await page.request.post(`${server!.url}/join/${waitlist.id}/confirm/submit`, { form: { token: new URL(link).searchParams.get("token")! }, headers: { origin: server!.url }, maxRedirects: 0 });
  expect(again.headers().location).toMatch(new RegExp(`^/join/${waitlist.id}/confirmed\\?outcome=already&t=[\\w.%-]+&p=[\\w.%-]+$`));
  const forged = await page.request.post(`${server!.url}/join/${waitlist.id}/confirm/submit`, { form: { token: new URL(link).searchParams.get("token")! }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect((await signupEvents(signup!.id, db)).map((event) => event.type)).toEqual(["signup.created", "signup.verified"]);
});

test("sending the email again is rate-limited; verification off sends nothing", async ({ page }) => {
  const db = server!.db();
  const waitlist = await openWaitlist({ verification: true }, db);
  await page.goto(`${server!.url}/join/${waitlist.id}`);
  await submitJoinForm(page, "grace.resend@example.com");
  // Not on the page after the form: only on the page the email links to.
  await expect(page.getByRole("button", { name: "Send the email again" })).toHaveCount(0);
  await eventually("the confirmation email", () => messages.some((message) => message.to === "grace.resend@example.com"), 30_000);
  await page.goto(linkIn("grace.resend@example.com", "Confirm your place", "joined", waitlist.id));
  await expect(page.getByTestId("verify-notice")).toContainText("follow it to confirm your place");
  await page.getByRole("button", { name: "Send the email again" }).click();
  await expect(page.getByTestId("resent")).toContainText("went out a moment ago");
  await page.waitForTimeout(500);
  expect(messages.filter((message) => message.to === "grace.resend@example.com")).toHaveLength(1);

  const quiet = await openWaitlist({ verification: false }, db);
  await page.goto(`${server!.url}/join/${quiet.id}`);
  await joinThroughForm(page, "quiet@example.com");
  await expect(page.getByTestId("verify-notice")).toHaveCount(0);
  await page.waitForTimeout(1_000);
  expect(messages.filter((message) => message.to === "quiet@example.com")).toHaveLength(0);
});

test("verification on: an existing address gets the very page a new one gets; its owner is emailed a link to their page (rate-limited), and reaches it", async ({ browser }) => {
  const db = server!.db();
  const waitlist = await openWaitlist({ verification: true, successMessage: "Thanks for joining." }, db);
  await seedSignups(waitlist.id, [{ email: "Known.Person@Example.com", verified: true, referral: true, customInputs: JSON.stringify([{ label: "Company", value: "Secret Corp" }]) }], db);
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId: waitlist.id, emails: ["known.person@example.com"] } }, db);
  const pageAfterForm = async (email: string) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server!.url}/join/${waitlist.id}`);
    await submitJoinForm(page, email);
    const shown = { url: page.url(), title: await page.title(), text: await page.locator("body").innerText(), html: await page.locator("main").innerHTML() };
    await context.close();
    return shown;
  };
  const fresh = await pageAfterForm("new.person@example.com");
  const existing = await pageAfterForm("KNOWN.person@example.com");
  expect(existing).toEqual(fresh);
  expect(fresh.text).toContain("Check your inbox");
  expect(fresh.text).not.toMatch(/You're number|Your referral link|\?ref=|Send the email again/);

  // The owner of the existing address gets "already on the list", whose link opens their page.
  const subject = `You're already on the ${waitlist.name} waitlist`;
  await eventually("the already-on-the-list email", () => messages.some((message) => message.to === "Known.Person@example.com"), 30_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(linkIn("Known.Person@example.com", subject, "joined", waitlist.id));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`You're on the ${waitlist.name} waitlist`);
  await expect(page.getByLabel("Your referral link")).toHaveValue(/\?ref=[a-z0-9]{10}$/);
  await context.close();
  // Typed again at once: no second email (at most one a minute, three an hour).
  await pageAfterForm("known.person@example.com");
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(messages.filter((message) => message.to === "Known.Person@example.com")).toHaveLength(1);
  expect((await signupsOf(waitlist.id, db)).map((signup) => signup.email)).toEqual(["Known.Person@Example.com", "new.person@example.com"]);
});

test("verification off, email configured: an existing address is told it is on the list and emailed its page; nothing of the person is shown", async ({ page }) => {
  const db = server!.db();
  const waitlist = await openWaitlist({ verification: false }, db);
  await page.goto(`${server!.url}/join/${waitlist.id}`);
  await joinThroughForm(page, "first.off@example.com");
  const referralLink = await page.getByLabel("Your referral link").inputValue();
  await page.context().clearCookies();
  await page.goto(`${server!.url}/join/${waitlist.id}`);
  await submitJoinForm(page, "FIRST.off@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This address is already on the list");
  await expect(page.getByTestId("joined-notice")).toHaveText("Nothing has changed. We've emailed it a link to its page, with its place in line and its referral link.");
  expect(await page.content()).not.toContain(referralLink.split("ref=")[1]!);
  await eventually("the already-on-the-list email", () => messages.some((message) => message.to === "first.off@example.com"), 30_000);
  await page.goto(linkIn("first.off@example.com", `You're already on the ${waitlist.name} waitlist`, "joined", waitlist.id));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You're number 1 in line");
  await expect(page.getByLabel("Your referral link")).toHaveValue(referralLink);
});
