import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fanOutEvents } from "@/lib/domain/deliveries/fan-out";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { EMAIL_OVER_ADDRESS_LIMIT, personEmailAllowed } from "@/lib/domain/verification/email-limit";
import { resendConfirmation } from "@/lib/domain/verification/resend";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { inTurn, upTo } from "@/tests/support/in-turn";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const PUBLIC_URL = "https://waitlist.example";
const HOUR_MS = 3_600_000;

describe("confirmation emails per address, across all waitlists (EMAILS_PER_ADDRESS_PER_HOUR, 5 by default)", () => {
  let temp: TempDatabase;
  let lists: string[];
  const emails = () =>
    temp.db.$client.prepare("SELECT recipient, waitlist_id AS waitlistId, state, last_error AS lastError FROM deliveries WHERE channel = 'email' ORDER BY id").all() as {
      recipient: string;
      waitlistId: string;
      state: string;
      lastError: string | null;
    }[];

  beforeEach(async () => {
    temp = tempDatabase();
    lists = await inTurn(upTo(7), async (index) => {
      const id = (await createWaitlist({ name: `List ${index}`, website: "https://acme.example" }, temp.db)).id;
      await updateJoinSettings(id, { joining: "open", verification: true }, "cli", temp.db);
      return id;
    });
  });
  afterEach(() => temp.close());

  it("sends one address at most 5 confirmations an hour over 7 lists (plus tags are the same inbox); the signups are made, the rest recorded as not sent", async () => {
    const start = Date.now();
    const signups = await inTurn(lists, async (waitlistId, index) => (await joinWaitlist({ waitlistId, email: index % 2 ? `Ada+list${index}@Example.com` : "ada@example.com", customInputs: [] }, temp.db)).signup);
    await joinWaitlist({ waitlistId: lists[0]!, email: "bob@example.com", customInputs: [] }, temp.db);
    await fanOutEvents({ limit: 100, emailConfigured: true, publicUrl: PUBLIC_URL, now: start }, temp.db);
    expect(signups.every((signup) => signup.id > 0)).toBe(true);
    const ada = emails().filter((email) => email.recipient.toLowerCase().startsWith("ada"));
    expect(ada.map((email) => email.state)).toEqual(["pending", "pending", "pending", "pending", "pending", "not_sent", "not_sent"]);
    expect(ada.slice(5).map((email) => email.lastError)).toEqual([EMAIL_OVER_ADDRESS_LIMIT, EMAIL_OVER_ADDRESS_LIMIT]);
    // Another person on the same list is not held up.
    expect(emails().find((email) => email.recipient === "bob@example.com")?.state).toBe("pending");

    // A resend on any list is refused until the address's hour ends, and queues nothing.
    const options = (now: number) => ({ emailConfigured: true, publicUrl: PUBLIC_URL, now });
    const refused = await resendConfirmation(lists[6]!, signups[6]!.id, options(start + 120_000), temp.db);
    expect(refused).toEqual({ sent: false, reason: "rate_limited", retryAfterSeconds: HOUR_MS / 1000 - 120 });
    expect(emails()).toHaveLength(8);
    expect(await resendConfirmation(lists[6]!, signups[6]!.id, options(start + HOUR_MS), temp.db)).toEqual({ sent: true });

    // The limits table names the address by a keyed hash only.
    const keys = temp.db.$client.prepare("SELECT key FROM rate_limits").pluck().all() as string[];
    // Each key is its limit's name, then waitlist ids and keyed hashes (hex): no part of an address.
    for (const key of keys) expect(key, key).toMatch(/^[a-z]+\.[a-z]+( ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}))+$/);
    expect(keys.join(" ")).not.toMatch(/@|example|ada\+/i);
  });

  it("counts nothing while email is not configured (nothing is sent)", async () => {
    const now = Date.now();
    for (const waitlistId of lists) await joinWaitlist({ waitlistId, email: "cy@example.com", customInputs: [] }, temp.db);
    await fanOutEvents({ limit: 100, emailConfigured: false, publicUrl: PUBLIC_URL, now }, temp.db);
    expect(new Set(emails().map((email) => email.lastError))).toEqual(new Set(["not sent: email is not configured (set SMTP_URL and MAIL_FROM)"]));
    expect(await personEmailAllowed("cy@example.com", now, temp.db)).toEqual({ allowed: true });
  });

  it("personEmailAllowed counts each call and says how long to wait past the limit", async () => {
    const now = Date.UTC(2026, 0, 1);
    for (let sent = 0; sent < 5; sent++) expect(await personEmailAllowed("dee@gmail.com", now + sent, temp.db)).toEqual({ allowed: true });
    expect(await personEmailAllowed("d.e.e+x@googlemail.com", now + 60_000, temp.db)).toEqual({ allowed: false, retryAfterSeconds: 3_540 });
    expect(await personEmailAllowed("eve@gmail.com", now + 60_000, temp.db)).toEqual({ allowed: true });
    expect(await personEmailAllowed("dee@gmail.com", now + HOUR_MS, temp.db)).toEqual({ allowed: true });
  });
});
