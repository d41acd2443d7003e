import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { DAY_MS } from "@/lib/core/time";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { signupPosition } from "@/lib/domain/joining/position";
import { createApiKey } from "@/lib/domain/keys/queries";
import { getSignup } from "@/lib/domain/signups/queries";
import { addEndpoint } from "@/lib/domain/webhooks/endpoints";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups, makeSignups } from "../support/api-fixtures";
import { startSmtpInbox, type SmtpInbox } from "../support/smtp-inbox";
import { startTestServer, type TestServer } from "../support/test-server";
import { eventually, startReceiver, type Receiver } from "../support/webhook-receiver";

// Expiry and reminders on the real server, with the controllable clock of `waitlists scheduler run
// --at` (no sleeps): an admin invites through /v1; the invitation email lands in a real SMTP server
// with its invite link; run as of the reminder's day, the reminder email lands with the same link;
// run past the expiry, the signup waits again at the front of the line, `signup.invitation_expired`
// reaches a real webhook receiver, and the product's redeem of the old token is refused as expired.

test.describe.configure({ timeout: 180_000 });

const SIGNUP_URL = "https://product.example/signup";
const FAST = { WEB_CONCURRENCY: "1", REQUEST_LOG: "off", WEBHOOK_ALLOW_HTTP: "1", WEBHOOK_ALLOW_PRIVATE: "1", DELIVERY_POLL: "50ms", MAIL_FROM: "Launch <launch@example.com>" };

let server: TestServer | undefined;
let inbox: SmtpInbox | undefined;
let receiver: Receiver | undefined;
test.afterEach(async () => {
  await server?.stop("SIGKILL");
  await inbox?.close();
  await receiver?.close();
  server = inbox = receiver = undefined;
});

/** `waitlists scheduler run --at <instant> --json` on the server's database: what it did. */
function schedulerRun(databasePath: string, at: number): { at: string; reminded: number; expired: number } {
  const result = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "waitlists", "scheduler", "run", "--at", new Date(at).toISOString(), "--json"], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_PATH: databasePath, NODE_NO_WARNINGS: "1" },
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { at: string; reminded: number; expired: number };
}

const tokenIn = (text: string) => new URL(new RegExp(`${SIGNUP_URL.replace(/[.?]/g, "\\$&")}\\?invite=[A-Za-z0-9_.-]+`).exec(text)![0]).searchParams.get("invite")!;

test("a reminder before expiry by real email with the invite link; past expiry back to waiting at the front, signup.invitation_expired to a webhook, the old token refused as expired", async () => {
  inbox = await startSmtpInbox();
  let secret = "";
  receiver = await startReceiver(() => secret);
  server = await startTestServer({ portOffset: 96, name: "invitation-timing", env: { ...FAST, SMTP_URL: inbox.url } });
  const db = server.db();
  const waitlist = await createWaitlist({ name: "Timed", website: "https://timed.example" }, db);
  const seeds = makeSignups(4, `timed${Date.now()}`);
  await insertSignups(waitlist.id, seeds, db);
  await updateInvitationEmail("cli", waitlist.id, { enabled: true, body: "You're in: {{invite.url}}\n", inviteUrl: SIGNUP_URL, inviteExpiryDays: 5, reminderDaysBefore: 2, reminderSubject: "Last days for {{waitlist.name}}", reminderBody: "Still yours: {{invite.url}}\n" }, db);
  secret = (await addEndpoint("cli", { url: receiver.url, events: ["signup.invitation_expired"] }, db)).secret;
  const admin = { authorization: `Bearer ${(await createApiKey({ name: "timing admin", roles: ["waitlist:admin"] }, db)).key}` };
  const redeemer = { authorization: `Bearer ${(await createApiKey({ name: "timing product", roles: ["waitlist:redeem"] }, db)).key}` };
  const person = seeds[2]!;

  const invited = await fetch(`${server.url}/v1/waitlist/${waitlist.id}/signup/invite`, { method: "POST", headers: { ...admin, "content-type": "application/json" }, body: JSON.stringify({ emails: [person.email] }) });
  expect(invited.status).toBe(200);
  await eventually("the invitation email", () => inbox!.messages.some((message) => message.to === person.email));
  const token = tokenIn(inbox.messages.find((message) => message.to === person.email)!.data);
  const signupId = db.$client.prepare("SELECT id FROM signups WHERE waitlist_id = ? AND email = ?").pluck().get(waitlist.id, person.email) as number;
  const invitedAt = (await getSignup(waitlist.id, signupId, db))!.statusChangedAt!.getTime();

  // The day before the reminder: nothing. On it: one reminder, once.
  expect(schedulerRun(server.databasePath, invitedAt + 3 * DAY_MS - 60_000)).toMatchObject({ reminded: 0, expired: 0 });
  expect(schedulerRun(server.databasePath, invitedAt + 3 * DAY_MS)).toMatchObject({ reminded: 1, expired: 0 });
  expect(schedulerRun(server.databasePath, invitedAt + 4 * DAY_MS)).toMatchObject({ reminded: 0, expired: 0 });
  await eventually("the reminder email", () => inbox!.messages.some((message) => message.data.includes("Subject: Last days for Timed")));
  const reminder = inbox.messages.find((message) => message.data.includes("Subject: Last days for Timed"))!;
  expect(reminder.to).toBe(person.email);
  expect(reminder.data).toContain("Still yours: ");
  expect(tokenIn(reminder.data)).toBe(token);
  // Still valid before the expiry.
  expect((await fetch(`${server.url}/v1/invitations/${token}`, { headers: redeemer })).status).toBe(200);

  // Past the expiry: waiting again, ahead of everyone who waited.
  expect(schedulerRun(server.databasePath, invitedAt + 5 * DAY_MS)).toMatchObject({ reminded: 0, expired: 1 });
  expect((await getSignup(waitlist.id, signupId, db))!.status).toBe("waiting");
  expect(await signupPosition(waitlist.id, signupId, db)).toBe(1);
  await eventually("signup.invitation_expired at the receiver", () => receiver!.received.some((request) => request.body.type === "signup.invitation_expired"));
  const expired = receiver.received.find((request) => request.body.type === "signup.invitation_expired")!;
  expect(expired.signatureValid).toBe(true);
  expect(expired.body.data).toMatchObject({ waitlist_id: waitlist.id, previous_status: "invited", signup: { email: person.email, status: "waiting" } });
  expect(db.$client.prepare("SELECT actor, summary FROM audit_log WHERE action = 'signups.expire' AND target = ?").all(waitlist.id)).toEqual([
    { actor: "scheduler", summary: "1 invitation expired after 5 days: back to waiting at the front of the line" },
  ]);

  // The product's look and redeem of the old token: expired, not withdrawn; nothing changes.
  for (const response of [await fetch(`${server.url}/v1/invitations/${token}`, { headers: redeemer }), await fetch(`${server.url}/v1/invitations/${token}/redeem`, { method: "POST", headers: redeemer })]) {
    expect(response.status).toBe(409);
    expect(((await response.json()) as { detail: string }).detail).toContain("This invitation has expired");
  }
  expect((await getSignup(waitlist.id, signupId, db))!.status).toBe("waiting");
});
