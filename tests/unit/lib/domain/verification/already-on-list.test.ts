import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pruneDelivered } from "@/lib/domain/deliveries/queries";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { ALREADY_ON_LIST_EMAILS_PER_HOUR, emailAlreadyOnList } from "@/lib/domain/verification/already-on-list";
import { readLinkToken } from "@/lib/domain/verification/link-token";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { inTurn, upTo } from "@/tests/support/in-turn";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const PUBLIC_URL = "https://waitlist.example";

describe('the "already on the list" email', () => {
  let temp: TempDatabase;
  let waitlistId: string;
  let signupId: number;
  const emails = () =>
    temp.db.$client.prepare("SELECT recipient, subject, body, event_id AS eventId, event_type AS eventType, state FROM deliveries WHERE channel = 'email' ORDER BY id").all() as {
      recipient: string;
      subject: string;
      body: string;
      eventId: number | null;
      eventType: string;
      state: string;
    }[];
  const options = (now: number) => ({ emailConfigured: true, publicUrl: PUBLIC_URL, now });

  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    // An imported signup: it has no event, and still gets its email.
    insertSignups(waitlistId, [{ email: "Ada@Example.com", verified: false, referral: false, customInputs: "[]" }], temp.db);
    signupId = (temp.db.$client.prepare("SELECT id FROM signups").get() as { id: number }).id;
  });
  afterEach(() => temp.close());

  it("sends the address a link to its own page, at most one a minute and 3 an hour per signup", async () => {
    const start = Date.UTC(2026, 0, 1);
    expect(await emailAlreadyOnList(waitlistId, signupId, options(start), temp.db)).toEqual({ sent: true });
    const [email] = emails();
    expect(email).toMatchObject({ recipient: "Ada@Example.com", subject: "You're already on the Acme Beta waitlist", eventId: null, eventType: "already_on_list", state: "pending" });
    const token = decodeURIComponent(new RegExp(`${PUBLIC_URL}/join/${waitlistId}/joined\\?t=(\\S+)`).exec(email!.body)![1]!);
    expect(await readLinkToken(token, "joined", start, temp.db)).toMatchObject({ ok: true, claims: { waitlistId, signupId } });

    expect(await emailAlreadyOnList(waitlistId, signupId, options(start + 10_000), temp.db)).toEqual({ sent: false, reason: "rate_limited", retryAfterSeconds: 50 });
    expect(await emailAlreadyOnList(waitlistId, signupId, options(start + 61_000), temp.db)).toEqual({ sent: true });
    expect(await emailAlreadyOnList(waitlistId, signupId, options(start + 122_000), temp.db)).toEqual({ sent: true });
    expect(emails()).toHaveLength(ALREADY_ON_LIST_EMAILS_PER_HOUR);
    expect(await emailAlreadyOnList(waitlistId, signupId, options(start + 183_000), temp.db)).toEqual({ sent: false, reason: "rate_limited", retryAfterSeconds: 3_600 - 183 });
    expect(emails()).toHaveLength(ALREADY_ON_LIST_EMAILS_PER_HOUR);
    expect(await emailAlreadyOnList(waitlistId, signupId, options(start + 3_601_000), temp.db)).toEqual({ sent: true });
    expect(emails()).toHaveLength(ALREADY_ON_LIST_EMAILS_PER_HOUR + 1);
  });

  it("keeps nothing while email is not configured; an erased signup is gone with its emails; the retention period takes old ones", async () => {
    expect(await emailAlreadyOnList(waitlistId, signupId, { emailConfigured: false, publicUrl: PUBLIC_URL }, temp.db)).toEqual({ sent: false, reason: "email_not_configured" });
    expect(emails()).toEqual([]);
    const start = Date.UTC(2026, 0, 1);
    expect(await emailAlreadyOnList(waitlistId, signupId, options(start), temp.db)).toEqual({ sent: true });
    // Sent, then past the retention period: pruned like any delivered email.
    temp.db.$client.prepare("UPDATE deliveries SET state = 'succeeded', next_attempt_at = NULL").run();
    await pruneDelivered(24 * 3_600_000, start + 2 * 24 * 3_600_000, temp.db);
    expect(emails()).toEqual([]);
    expect(await emailAlreadyOnList(waitlistId, signupId, options(start + 3 * 24 * 3_600_000), temp.db)).toEqual({ sent: true });
    await eraseSignup("cli", waitlistId, signupId, temp.db);
    expect(emails()).toEqual([]);
    expect(await emailAlreadyOnList(waitlistId, signupId, options(start + 4 * 24 * 3_600_000), temp.db)).toEqual({ sent: false, reason: "gone" });
  });

  it("counts against the address's emails across every list (EMAILS_PER_ADDRESS_PER_HOUR, 5): a sixth list's email is not sent", async () => {
    const start = Date.UTC(2026, 0, 1);
    const lists = [waitlistId, ...(await inTurn(upTo(5), async (index) => (await createWaitlist({ name: `List ${index}`, website: "https://acme.example" }, temp.db)).id))];
    for (const list of lists.slice(1)) insertSignups(list, [{ email: "ada+" + list.slice(0, 4) + "@example.com", verified: false, referral: false, customInputs: "[]" }], temp.db);
    const signupOf = (list: string) => (temp.db.$client.prepare("SELECT id FROM signups WHERE waitlist_id = ?").get(list) as { id: number }).id;
    const outcomes = await inTurn(lists, (list) => emailAlreadyOnList(list, signupOf(list), options(start), temp.db));
    expect(outcomes.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => ({ sent: true })));
    expect(outcomes[5]).toEqual({ sent: false, reason: "rate_limited", retryAfterSeconds: 3_600 });
    expect(emails()).toHaveLength(5);
  });
});
