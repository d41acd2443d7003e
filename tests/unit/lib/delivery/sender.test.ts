import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SenderConfig } from "@/lib/delivery/config";
import { startSender, type Sender } from "@/lib/delivery/sender";
import { listDeliveries } from "@/lib/domain/deliveries/queries";
import { takeSenderLease } from "@/lib/domain/deliveries/sending";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { addEndpoint } from "@/lib/domain/webhooks/endpoints";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { eventually, startReceiver, type Receiver } from "@/tests/e2e/support/webhook-receiver";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// The sender in this process, on a real database and real local receivers: it delivers every event
// signed, keeps at most DELIVERY_CONCURRENCY requests in flight per endpoint, and an endpoint that
// never answers holds up only its own deliveries.

// The receivers listen on http://127.0.0.1 (read when the first endpoint is added).
process.env.WEBHOOK_ALLOW_HTTP = "1";

const config: SenderConfig = {
  schedule: [100],
  timeoutMs: 1_000,
  disableAfterMs: 60_000,
  leaseMs: 2_000,
  pollMs: 20,
  concurrency: 3,
  retentionMs: 86_400_000,
  allowPrivate: true,
  smtpUrl: undefined,
  mailFrom: "test@example.com",
};

let temp: TempDatabase;
let sender: Sender | undefined;
const receivers: Receiver[] = [];
beforeEach(() => (temp = tempDatabase()));
afterEach(async () => {
  await sender?.stop();
  sender = undefined;
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
  temp.close();
});

async function inviteMany(count: number): Promise<string> {
  const waitlistId = (await createWaitlist({ name: "Sender", website: "https://sender.example" }, temp.db)).id;
  const emails = Array.from({ length: count }, (_, index) => `p${index}@example.com`);
  insertSignups(waitlistId, emails.map((email) => ({ email, verified: true, referral: false, customInputs: "[]" })), temp.db);
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails } }, temp.db);
  return waitlistId;
}

describe("the sender", () => {
  it("delivers every event, signed, with at most DELIVERY_CONCURRENCY in flight per endpoint; a dead endpoint delays nothing else", async () => {
    let fastSecret = "";
    let inFlight = 0;
    let most = 0;
    const fast = await startReceiver(() => fastSecret, () => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => inFlight--, 15);
      return { status: 200, delayMs: 15 };
    });
    const dead = await startReceiver(() => "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", () => "hang");
    receivers.push(fast, dead);
    fastSecret = (await addEndpoint("cli", { url: fast.url }, temp.db)).secret;
    await addEndpoint("cli", { url: dead.url }, temp.db);
    await inviteMany(60);

    const started = Date.now();
    sender = startSender(config, () => {}, temp.db);
    await eventually("60 events at the fast endpoint", () => fast.ids().size === 60, 20_000);
    // 60 sends of 15 ms, 3 at a time: well under the dead endpoint's 1 s timeout per attempt.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(most).toBeLessThanOrEqual(config.concurrency);
    expect(fast.received.every((entry) => entry.signatureValid)).toBe(true);
    expect(fast.received).toHaveLength(60);
    expect(dead.received.length).toBeLessThanOrEqual(config.concurrency);
  });

  it("during an outage probes the endpoint instead of failing its backlog delivery by delivery, then drains it at once", async () => {
    let secret = "";
    let down = true;
    const accepted: string[] = [];
    const receiver = await startReceiver(
      () => secret,
      (request) => {
        if (down) return { status: 503 };
        accepted.push(request.id);
        return { status: 200 };
      },
    );
    receivers.push(receiver);
    secret = (await addEndpoint("cli", { url: receiver.url }, temp.db)).secret;
    await inviteMany(2_000);
    const outage = { ...config, schedule: Array.from({ length: 12 }, () => 200) };
    sender = startSender(outage, () => {}, temp.db);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // About one round of probes (3 at a time) per 200 ms wait, not 2,000 failed attempts.
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received.length).toBeLessThanOrEqual(3 * (1_500 / 200 + 2));
    down = false;
    const recovered = Date.now();
    const succeeded = temp.db.$client.prepare("SELECT count(*) FROM deliveries WHERE state = 'succeeded'").pluck();
    await eventually("the backlog delivered and recorded", () => succeeded.get() === 2_000, 30_000);
    expect(Date.now() - recovered).toBeLessThan(20_000);
    // Every event accepted exactly once: the only repeats are the attempts refused during the outage.
    expect(accepted).toHaveLength(2_000);
    expect(new Set(accepted).size).toBe(2_000);
  });

  it("started again under the lease holder of one that died, goes on at once; under another name it waits for the lease", async () => {
    let secret = "";
    const receiver = await startReceiver(() => secret, () => ({ status: 204 }));
    receivers.push(receiver);
    secret = (await addEndpoint("cli", { url: receiver.url }, temp.db)).secret;
    await inviteMany(3);
    // A sender that died holding the lease (it never gave it up).
    expect(await takeSenderLease("server:1:sender", 60_000, Date.now(), temp.db)).toBe(true);
    sender = startSender(config, () => {}, temp.db, "server:1:other");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(0);
    await sender.stop();
    sender = startSender(config, () => {}, temp.db, "server:1:sender");
    await eventually("the events delivered", () => receiver.ids().size === 3, 5_000);
  });

  it("keeps an invitation email as not sent when no mail server is configured", async () => {
    const waitlistId = (await createWaitlist({ name: "Mail", website: "https://mail.example" }, temp.db)).id;
    insertSignups(waitlistId, [{ email: "jane@example.com", verified: true, referral: false, customInputs: "[]" }], temp.db);
    await updateInvitationEmail("cli", waitlistId, { enabled: true }, temp.db);
    await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails: ["jane@example.com"] } }, temp.db);
    sender = startSender(config, () => {}, temp.db);
    await eventually("the email rendered", () => temp.db.$client.prepare("SELECT count(*) FROM deliveries").pluck().get() === 1, 5_000);
    expect((await listDeliveries({}, temp.db))[0]).toMatchObject({ channel: "email", state: "not_sent", target: "jane@example.com", lastError: expect.stringMatching(/^not sent: email is not configured/) });
  });
});
