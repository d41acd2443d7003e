import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import { signupEvents } from "@/lib/domain/events";
import { getSignup } from "@/lib/domain/signups/queries";
import { eventually } from "../support/webhook-receiver";
import { joinThroughForm, openWaitlist, signupsOf } from "../support/join-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

// Email verification end to end: a server of its own with a real SMTP server (the smtp-server
// package); joining queues the confirmation email through the outbox, its link sets `verified`
// (event signup.verified) once, and "send the email again" is rate-limited.

const PORT_OFFSET = 91;
const publicUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + PORT_OFFSET}`;

/** A message's text part as sent (quoted-printable undone). */
function decoded(data: string): string {
  return data.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

let server: TestServer | undefined;
let smtp: SMTPServer;
const messages: { to: string; data: string }[] = [];

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
    env: { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", DELIVERY_POLL: "50ms", SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Launch <launch@example.com>", PUBLIC_URL: publicUrl },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

test("the confirmation link of the email opens a page whose button sets verified once; the second time says already confirmed", async ({ page }) => {
  const db = server!.db();
  const waitlist = openWaitlist({ verification: true }, db);
  await page.goto(`${server!.url}/join/${waitlist.id}`);
  await joinThroughForm(page, "Ada.Verify@Example.com");
  await expect(page.getByTestId("verify-notice")).toContainText("follow it to confirm your place");
  const [signup] = signupsOf(waitlist.id, db);
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
  expect(getSignup(waitlist.id, signup!.id, db)!.verified).toBe(false);

  // Opening the link changes nothing (a mail scanner opens links too): its button confirms.
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm your address");
  expect(getSignup(waitlist.id, signup!.id, db)!.verified).toBe(false);
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your address is confirmed");
  expect(getSignup(waitlist.id, signup!.id, db)!.verified).toBe(true);
  expect(signupEvents(signup!.id, db).map((event) => event.type)).toEqual(["signup.created", "signup.verified"]);

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Already confirmed");
  // The form posted again (a second tab, a double click) confirms nothing twice; from another site it is refused.
  const again = await page.request.post(`${server!.url}/join/${waitlist.id}/confirm/submit`, { form: { token: new URL(link).searchParams.get("token")! }, headers: { origin: server!.url }, maxRedirects: 0 });
  expect(again.headers().location).toBe(`/join/${waitlist.id}/confirmed?outcome=already`);
  const forged = await page.request.post(`${server!.url}/join/${waitlist.id}/confirm/submit`, { form: { token: new URL(link).searchParams.get("token")! }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(forged.status()).toBe(403);
  expect(signupEvents(signup!.id, db).map((event) => event.type)).toEqual(["signup.created", "signup.verified"]);
});

test("sending the email again is rate-limited; verification off sends nothing", async ({ page }) => {
  const db = server!.db();
  const waitlist = openWaitlist({ verification: true }, db);
  await page.goto(`${server!.url}/join/${waitlist.id}`);
  await joinThroughForm(page, "grace.resend@example.com");
  await eventually("the confirmation email", () => messages.some((message) => message.to === "grace.resend@example.com"), 30_000);
  await page.getByRole("button", { name: "Send the email again" }).click();
  await expect(page.getByTestId("resent")).toContainText("went out a moment ago");
  await page.waitForTimeout(500);
  expect(messages.filter((message) => message.to === "grace.resend@example.com")).toHaveLength(1);

  const quiet = openWaitlist({ verification: false }, db);
  await page.goto(`${server!.url}/join/${quiet.id}`);
  await joinThroughForm(page, "quiet@example.com");
  await expect(page.getByTestId("verify-notice")).toHaveCount(0);
  await page.waitForTimeout(1_000);
  expect(messages.filter((message) => message.to === "quiet@example.com")).toHaveLength(0);
});
