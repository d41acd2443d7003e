import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fanOutEvents } from "@/lib/domain/deliveries/fan-out";
import { signupEvents } from "@/lib/domain/events";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { getSignup } from "@/lib/domain/signups/queries";
import { confirmSignup } from "@/lib/domain/verification/confirm";
import { CONFIRM_LINK_LIFETIME_MS } from "@/lib/domain/verification/link-token";
import { resendConfirmation, RESENDS_PER_HOUR } from "@/lib/domain/verification/resend";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const PUBLIC_URL = "https://waitlist.example";

describe("confirming an address", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const emails = () =>
    temp.db.$client.prepare("SELECT recipient, subject, body, state, event_type AS eventType, created_at AS createdAt FROM deliveries WHERE channel = 'email' ORDER BY id").all() as {
      recipient: string;
      subject: string;
      body: string;
      state: string;
      eventType: string;
      createdAt: number;
    }[];
  const tokenOf = (body: string) => decodeURIComponent(/\/confirm\?token=([^\s]+)/.exec(body)![1]!);

  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  it("queues no email while verification is off, and one with a link while it is on", async () => {
    await joinWaitlist({ waitlistId, email: "off@example.com", customInputs: [] }, temp.db);
    await fanOutEvents({ limit: 10, emailConfigured: true, publicUrl: PUBLIC_URL }, temp.db);
    expect(emails()).toEqual([]);

    await updateJoinSettings(waitlistId, { verification: true }, "cli", temp.db);
    await joinWaitlist({ waitlistId, email: "On@Example.com", customInputs: [] }, temp.db);
    await fanOutEvents({ limit: 10, emailConfigured: true, publicUrl: PUBLIC_URL }, temp.db);
    const [email] = emails();
    expect(email).toMatchObject({ recipient: "On@Example.com", subject: "Confirm your place on the Acme Beta waitlist", state: "pending", eventType: "signup.created" });
    expect(email!.body).toContain(`${PUBLIC_URL}/join/${waitlistId}/confirm?token=`);
  });

  it("sets verified once with its event; the second time changes nothing; expired, forged and another list's links change nothing", async () => {
    await updateJoinSettings(waitlistId, { verification: true }, "cli", temp.db);
    const { signup } = await joinWaitlist({ waitlistId, email: "ada@example.com", customInputs: [] }, temp.db);
    const now = Date.now();
    await fanOutEvents({ limit: 10, emailConfigured: false, publicUrl: PUBLIC_URL, now }, temp.db);
    const token = tokenOf(emails()[0]!.body);
    expect(emails()[0]!.state).toBe("not_sent");

    const other = (await createWaitlist({ name: "Other", website: "https://other.example" }, temp.db)).id;
    expect(await confirmSignup(other, token, now, temp.db)).toBe("invalid");
    expect(await confirmSignup(waitlistId, token, now + CONFIRM_LINK_LIFETIME_MS, temp.db)).toBe("expired");
    expect(await confirmSignup(waitlistId, `${token}x`, now, temp.db)).toBe("invalid");
    expect((await getSignup(waitlistId, signup.id, temp.db))!.verified).toBe(false);

    expect(await confirmSignup(waitlistId, token, now, temp.db)).toBe("confirmed");
    expect((await getSignup(waitlistId, signup.id, temp.db))!.verified).toBe(true);
    expect(await confirmSignup(waitlistId, token, now, temp.db)).toBe("already");
    expect((await signupEvents(signup.id, temp.db)).map((event) => event.type)).toEqual(["signup.created", "signup.verified"]);
    // The verified count moved with it (the update trigger keeps signup_counts).
    expect(temp.db.$client.prepare("SELECT sum(count) AS n FROM signup_counts WHERE waitlist_id = ? AND verified = 1").get(waitlistId)).toEqual({ n: 1 });

    temp.db.$client.prepare("DELETE FROM signups WHERE id = ?").run(signup.id);
    expect(await confirmSignup(waitlistId, token, now, temp.db)).toBe("gone");
  });

  it("resends a fresh link at most once a minute and a few times an hour, never to a verified signup", async () => {
    await updateJoinSettings(waitlistId, { verification: true }, "cli", temp.db);
    const { signup } = await joinWaitlist({ waitlistId, email: "ada@example.com", customInputs: [] }, temp.db);
    const start = Date.now();
    await fanOutEvents({ limit: 10, emailConfigured: true, publicUrl: PUBLIC_URL, now: start }, temp.db);
    const options = (now: number) => ({ emailConfigured: true, publicUrl: PUBLIC_URL, now });
    expect(await resendConfirmation(waitlistId, signup.id, options(start + 10_000), temp.db)).toEqual({ sent: false, reason: "rate_limited", retryAfterSeconds: 50 });
    expect(await resendConfirmation(waitlistId, signup.id, options(start + 61_000), temp.db)).toEqual({ sent: true });
    expect(await resendConfirmation(waitlistId, signup.id, options(start + 122_000), temp.db)).toEqual({ sent: true });
    expect(emails()).toHaveLength(RESENDS_PER_HOUR);
    expect(await resendConfirmation(waitlistId, signup.id, options(start + 183_000), temp.db)).toEqual({ sent: false, reason: "rate_limited", retryAfterSeconds: 3_600 - 183 });
    expect(new Set(emails().map((email) => tokenOf(email.body))).size).toBe(RESENDS_PER_HOUR);
    expect(await resendConfirmation(waitlistId, signup.id, options(start + 3_601_000), temp.db)).toEqual({ sent: true });

    expect(await confirmSignup(waitlistId, tokenOf(emails().at(-1)!.body), start + 3_602_000, temp.db)).toBe("confirmed");
    expect(await resendConfirmation(waitlistId, signup.id, options(start + 7_300_000), temp.db)).toEqual({ sent: false, reason: "already_verified" });
    expect(await resendConfirmation(waitlistId, 999_999, options(start), temp.db)).toEqual({ sent: false, reason: "gone" });
  });
});
