import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/domain/audit/log";
import { EMAIL_NOT_CONFIGURED, fanOutEvents, lastFannedOutEvent } from "@/lib/domain/deliveries/fan-out";
import { listEventFeed } from "@/lib/domain/deliveries/feed";
import { getDeliveryOrThrow, listDeliveries, pruneDelivered, resendDelivery } from "@/lib/domain/deliveries/queries";
import { claimDue, recordOutcome, releaseSenderLease, takeSenderLease } from "@/lib/domain/deliveries/sending";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { eraseAddress } from "@/lib/domain/signups/erase";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { addEndpoint, listEndpoints, updateEndpoint } from "@/lib/domain/webhooks/endpoints";
import { confirmSignup } from "@/lib/domain/verification/confirm";
import { signLinkToken } from "@/lib/domain/verification/link-token";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

// The delivery engine's SQLite half on a real, migrated file: fan-out of the outbox, leases and
// claims, outcomes on the retry schedule, an endpoint disabled after failing for too long, Resend,
// the retention period and the feed's bodies.

const SCHEDULE = [1_000, 60_000];
const options = { schedule: SCHEDULE, disableAfterMs: 10 * 60_000, random: () => 0.5 };
let temp: TempDatabase;
let alpha: string;
let beta: string;

async function invite(waitlistId: string, ...emails: string[]) {
  await applyStatusAction("cli", { action: "invite", selection: { waitlistId, emails } }, temp.db);
}

beforeEach(async () => {
  temp = tempDatabase();
  alpha = (await createWaitlist({ name: "Alpha", website: "https://alpha.example" }, temp.db)).id;
  beta = (await createWaitlist({ name: "Beta", website: "https://beta.example" }, temp.db)).id;
  const customInputs = JSON.stringify([{ label: "company", value: "Acme" }]);
  insertSignups(alpha, ["a1@example.com", "a2@example.com", "a3@example.com"].map((email) => ({ email, verified: true, referral: false, customInputs })), temp.db, Date.UTC(2026, 0, 2));
  insertSignups(beta, [{ email: "b1@example.com", verified: false, referral: true, customInputs: "[]" }], temp.db, Date.UTC(2026, 0, 3));
});
afterEach(() => temp.close());

describe("fan-out", () => {
  it("makes one delivery per event and endpoint that wants it, once, in event order", async () => {
    const all = await addEndpoint("cli", { url: "https://all.example/hook" }, temp.db);
    const onlyBetaRejections = await addEndpoint("cli", { url: "https://beta.example/hook", waitlist: beta, events: ["signup.rejected"] }, temp.db);
    const disabled = await addEndpoint("cli", { url: "https://off.example/hook" }, temp.db);
    await updateEndpoint("cli", disabled.id, { enabled: false }, temp.db);
    await invite(alpha, "a1@example.com", "a2@example.com");
    await applyStatusAction("cli", { action: "reject", selection: { waitlistId: beta, emails: ["b1@example.com"] } }, temp.db);

    expect(await fanOutEvents({ limit: 2, emailConfigured: false }, temp.db)).toBe(2);
    expect(await fanOutEvents({ limit: 2, emailConfigured: false }, temp.db)).toBe(1);
    expect(await fanOutEvents({ limit: 2, emailConfigured: false }, temp.db)).toBe(0);
    expect(await lastFannedOutEvent(temp.db)).toBe(3);

    const rows = (await listDeliveries({}, temp.db)).reverse();
    expect(rows.map((row) => [row.eventId, row.endpointId, row.eventType, row.state])).toEqual([
      [1, all.id, "signup.invited", "pending"],
      [2, all.id, "signup.invited", "pending"],
      [3, all.id, "signup.rejected", "pending"],
      [3, onlyBetaRejections.id, "signup.rejected", "pending"],
    ]);
    expect(await listDeliveries({ waitlist: beta }, temp.db)).toHaveLength(2);
    expect(await listDeliveries({ type: "signup.invited" }, temp.db)).toHaveLength(2);
    expect(await listDeliveries({ endpoint: onlyBetaRejections.id }, temp.db)).toHaveLength(1);
  });

  it("gives the body of the webhooks: the event's type and time, and the signup in the /v1 shapes", async () => {
    await addEndpoint("cli", { url: "https://all.example/hook" }, temp.db);
    await invite(alpha, "a1@example.com");
    await fanOutEvents({ limit: 10, emailConfigured: false }, temp.db);
    const [delivery] = await listDeliveries({}, temp.db);
    const sent = (await getDeliveryOrThrow(delivery!.id, temp.db)).body!;
    const body = JSON.parse(sent) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(["type", "timestamp", "data"]);
    expect(body).toEqual({
      type: "signup.invited",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: {
        waitlist_id: alpha,
        signup: {
          email: "a1@example.com",
          verified: true,
          referral: false,
          custom_inputs: [{ label: "company", value: "Acme" }],
          created_at: "2026-01-02T00:00:00.000Z",
          id: expect.stringMatching(/^[1-9][0-9]*$/),
          status: "invited",
          status_changed_at: body.timestamp,
        },
        previous_status: "waiting",
      },
    });
    // The feed lists the same body, byte for byte, after the event's id.
    const feed = await listEventFeed(alpha, {}, temp.db);
    expect(feed.items).toEqual([`{"id":"evt_1",${sent.slice(1)}`]);
    expect(feed.next).toMatchObject({ id: 1 });
    expect(await listEventFeed(alpha, { after: feed.next }, temp.db)).toEqual({ items: [], next: feed.next });
  });

  it("a webhook fanned out later and the feed read later both carry the body as of the event, byte for byte", async () => {
    await addEndpoint("cli", { url: "https://all.example/hook" }, temp.db);
    await updateJoinSettings(alpha, { joining: "open", verification: true }, "cli", temp.db);
    const joined = (await joinWaitlist({ waitlistId: alpha, email: "new@example.com", customInputs: [] }, temp.db)).signup;
    const token = await signLinkToken({ purpose: "confirm", waitlistId: alpha, signupId: joined.id, expiresAt: new Date(Date.now() + 60_000) }, temp.db);
    expect(await confirmSignup(alpha, token, Date.now(), temp.db)).toBe("confirmed");
    await invite(alpha, "new@example.com");
    // Only now does the sender run, and a client read the feed: the signup is verified and invited by then.
    await fanOutEvents({ limit: 10, emailConfigured: false }, temp.db);
    const webhooks = temp.db.$client.prepare("SELECT event_id AS eventId, body FROM deliveries WHERE channel = 'webhook' ORDER BY event_id").all() as { eventId: number; body: string }[];
    const feed = (await listEventFeed(alpha, {}, temp.db)).items;
    expect(feed).toEqual(webhooks.map(({ eventId, body }) => `{"id":"evt_${eventId}",${body.slice(1)}`));
    const states = webhooks.map(({ body }) => JSON.parse(body) as { type: string; data: { signup: { verified: boolean; status: string } } });
    expect(states.map(({ type, data }) => [type, data.signup.verified, data.signup.status])).toEqual([
      ["signup.created", false, "waiting"],
      ["signup.verified", true, "waiting"],
      ["signup.invited", true, "invited"],
    ]);
  });

  it("an erased signup is only its id, in the events written before its erasure too", async () => {
    await invite(alpha, "a1@example.com");
    const [a1] = (await listEventFeed(alpha, {}, temp.db)).items.map((item) => JSON.parse(item) as { timestamp: string; data: { signup: { id: string } } });
    expect(JSON.stringify(temp.db.$client.prepare("SELECT body FROM events").all())).toContain("a1@example.com");
    await eraseAddress("cli", { email: "a1@example.com" }, temp.db);
    expect((await listEventFeed(alpha, {}, temp.db)).items.map((item) => JSON.parse(item) as unknown)).toEqual([
      { id: "evt_1", type: "signup.invited", timestamp: a1!.timestamp, data: { waitlist_id: alpha, signup: { id: a1!.data.signup.id } } },
      { id: "evt_2", type: "signup.erased", timestamp: expect.any(String) as string, data: { waitlist_id: alpha, signup: { id: a1!.data.signup.id } } },
    ]);
    expect(JSON.stringify(temp.db.$client.prepare("SELECT body, payload FROM events").all())).not.toContain("a1@example.com");
  });

  it("queues one invitation email per signup.invited while the waitlist sends them, kept as not sent without SMTP", async () => {
    await invite(alpha, "a1@example.com");
    // The settings count when an event is fanned out (by the running sender, at once).
    await fanOutEvents({ limit: 10, emailConfigured: false }, temp.db);
    await updateInvitationEmail("cli", alpha, { enabled: true, subject: "Welcome to {{waitlist.name}}", body: "Hi {{email}} from {{input.company}}: {{waitlist.website}}" }, temp.db);
    await invite(alpha, "a2@example.com");
    await invite(beta, "b1@example.com");
    await fanOutEvents({ limit: 10, emailConfigured: false }, temp.db);
    const emails = await listDeliveries({ state: "not_sent" }, temp.db);
    expect(emails.map((row) => [row.channel, row.target, row.lastError])).toEqual([["email", "a2@example.com", EMAIL_NOT_CONFIGURED]]);
    expect(await getDeliveryOrThrow(emails[0]!.id, temp.db)).toMatchObject({ subject: "Welcome to Alpha", body: expect.stringMatching(/^Hi a2@example\.com from Acme: https:\/\/alpha\.example\/\n\nYour own page \(.*\):\n\nhttps?:\/\/\S+\/join\/[0-9a-f-]{36}\/me\?t=\S+\n$/), nextAttemptAt: null });

    await invite(alpha, "a3@example.com");
    await fanOutEvents({ limit: 10, emailConfigured: true }, temp.db);
    expect((await listDeliveries({ state: "pending" }, temp.db)).map((row) => [row.channel, row.target])).toEqual([["email", "a3@example.com"]]);
  });
});

describe("claims and outcomes", () => {
  let endpointId: string;
  beforeEach(async () => {
    endpointId = (await addEndpoint("cli", { url: "https://all.example/hook" }, temp.db)).id;
    await invite(alpha, "a1@example.com", "a2@example.com", "a3@example.com");
    await fanOutEvents({ limit: 10, emailConfigured: false, now: 1_000 }, temp.db);
  });

  it("claims at most the free slots, and a claim nobody finished is claimed again when its lease ends", async () => {
    const first = await claimDue(endpointId, 2, 30_000, 2_000, temp.db);
    expect(first.map((delivery) => [delivery.eventId, delivery.attempts, delivery.leaseUntil])).toEqual([
      [1, 1, 32_000],
      [2, 1, 32_000],
    ]);
    expect((await claimDue(endpointId, 5, 30_000, 3_000, temp.db)).map((delivery) => delivery.eventId)).toEqual([3]);
    expect(await claimDue(endpointId, 5, 30_000, 31_999, temp.db)).toEqual([]);
    expect(await claimDue(null, 5, 30_000, 31_999, temp.db)).toEqual([]);
    // The sender crashed: both leases end, both are claimed again, each with its second attempt.
    const again = await claimDue(endpointId, 5, 30_000, 32_000, temp.db);
    expect(again.map((delivery) => [delivery.eventId, delivery.attempts])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    // The crashed claim's outcome comes too late: its lease is not the delivery's any more.
    expect(await recordOutcome(first[0]!, { kind: "sent", response: "200" }, { ...options, now: 40_000 }, temp.db)).toBe(false);
    expect(await recordOutcome(again[0]!, { kind: "sent", response: "204" }, { ...options, now: 40_000 }, temp.db)).toBe(true);
    expect(await getDeliveryOrThrow(again[0]!.id, temp.db)).toMatchObject({ state: "succeeded", lastResponse: "204", nextAttemptAt: null, attempts: 2 });
  });

  it("retries on the schedule, then fails; the endpoint is disabled once it has failed for too long", async () => {
    // The other two stay leased (a long lease) while the first goes through its schedule.
    const [claim, , held] = await claimDue(endpointId, 3, 1e9, 2_000, temp.db);
    expect(await recordOutcome(claim!, { kind: "failed", response: "500", error: "HTTP 500: down" }, { ...options, now: 3_000 }, temp.db)).toBe(true);
    // random 0.5: no jitter, the schedule's first wait exactly.
    expect(await getDeliveryOrThrow(claim!.id, temp.db)).toMatchObject({ state: "pending", nextAttemptAt: new Date(4_000), lastResponse: "500", lastError: "HTTP 500: down" });
    expect((await listEndpoints(temp.db))[0]!.failingSince).toEqual(new Date(3_000));
    expect((await claimDue(endpointId, 5, 30_000, 3_999, temp.db)).map((delivery) => delivery.id)).not.toContain(claim!.id);

    const [second] = await claimDue(endpointId, 1, 30_000, 4_000, temp.db);
    expect(second).toMatchObject({ id: claim!.id, attempts: 2 });
    await recordOutcome(second!, { kind: "failed", error: "ECONNREFUSED" }, { ...options, now: 5_000 }, temp.db);
    expect(await getDeliveryOrThrow(claim!.id, temp.db)).toMatchObject({ state: "pending", nextAttemptAt: new Date(65_000), lastResponse: null });
    const [third] = await claimDue(endpointId, 1, 30_000, 65_000, temp.db);
    await recordOutcome(third!, { kind: "failed", error: "ECONNREFUSED" }, { ...options, now: 66_000 }, temp.db);
    expect(await getDeliveryOrThrow(claim!.id, temp.db)).toMatchObject({ state: "failed", attempts: 3, nextAttemptAt: null });

    // Still failing ten minutes after the first failure: disabled, and what waited for it failed.
    await recordOutcome(held!, { kind: "failed", error: "timeout" }, { ...options, now: 3_000 + options.disableAfterMs }, temp.db);
    const endpoint = (await listEndpoints(temp.db))[0]!;
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/^disabled automatically: every delivery failed since 1970-01-01T00:00:03.000Z \(last: timeout\)$/) });
    expect(await listDeliveries({ state: "pending" }, temp.db)).toEqual([]);
    await expect(resendDelivery("cli", claim!.id, temp.db)).rejects.toThrow(/disabled: enable it first/);
  });

  it("a success clears the endpoint's failure record; Resend sends a failed delivery again, audited", async () => {
    const [claim, other] = await claimDue(endpointId, 2, 30_000, 2_000, temp.db);
    await recordOutcome(claim!, { kind: "failed", error: "x" }, { ...options, schedule: [], now: 3_000 }, temp.db);
    expect((await listEndpoints(temp.db))[0]!.failingSince).not.toBeNull();
    await recordOutcome(other!, { kind: "sent", response: "200" }, { ...options, now: 3_000 }, temp.db);
    expect((await listEndpoints(temp.db))[0]!.failingSince).toBeNull();

    expect((await getDeliveryOrThrow(claim!.id, temp.db)).state).toBe("failed");
    const resent = await resendDelivery("cli", claim!.id, temp.db);
    expect(resent).toMatchObject({ state: "pending", attempts: 0 });
    expect((await claimDue(endpointId, 5, 30_000, Date.now() + 1, temp.db)).map((delivery) => delivery.id)).toContain(claim!.id);
    await expect(resendDelivery("cli", claim!.id, temp.db)).rejects.toThrow(/being sent right now/);
    expect((await listAudit({ action: "delivery.resend", limit: 5 }, temp.db)).map((row) => row.target)).toEqual([String(claim!.id)]);
  });

  it("an endpoint that is back makes its deliveries waiting for a retry due at once", async () => {
    const [failing, succeeding] = await claimDue(endpointId, 2, 30_000, 2_000, temp.db);
    await recordOutcome(failing!, { kind: "failed", error: "ECONNREFUSED" }, { ...options, now: 3_000 }, temp.db);
    expect((await getDeliveryOrThrow(failing!.id, temp.db)).nextAttemptAt).toEqual(new Date(4_000));
    await recordOutcome(succeeding!, { kind: "sent", response: "200" }, { ...options, now: 3_500 }, temp.db);
    expect(await getDeliveryOrThrow(failing!.id, temp.db)).toMatchObject({ state: "pending", nextAttemptAt: new Date(3_500), attempts: 1 });
  });

  it("drops events past the retention period once nothing waits for them, with their deliveries", async () => {
    const claims = await claimDue(endpointId, 3, 30_000, 2_000, temp.db);
    for (const claim of claims.slice(0, 2)) await recordOutcome(claim, { kind: "sent", response: "200" }, { ...options, now: 3_000 }, temp.db);
    expect(await pruneDelivered(1_000, Date.now() + 60_000, temp.db)).toBe(2);
    expect((await listDeliveries({}, temp.db)).map((row) => row.eventId)).toEqual([3]);
    expect((await listEventFeed(alpha, {}, temp.db)).items.map((item) => (JSON.parse(item) as { id: string }).id)).toEqual(["evt_3"]);
  });
});

describe("the sender's lease", () => {
  it("is held by one holder at a time, renewed by it, taken over once it lapses or is released", async () => {
    expect(await takeSenderLease("a", 10_000, 1_000, temp.db)).toBe(true);
    expect(await takeSenderLease("b", 10_000, 5_000, temp.db)).toBe(false);
    expect(await takeSenderLease("a", 10_000, 9_000, temp.db)).toBe(true);
    expect(await takeSenderLease("b", 10_000, 18_999, temp.db)).toBe(false);
    expect(await takeSenderLease("b", 10_000, 19_000, temp.db)).toBe(true);
    expect(await takeSenderLease("a", 10_000, 19_001, temp.db)).toBe(false);
    await releaseSenderLease("b", temp.db);
    expect(await takeSenderLease("a", 10_000, 19_002, temp.db)).toBe(true);
  });
});
