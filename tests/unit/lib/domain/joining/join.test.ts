import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signupEvents } from "@/lib/domain/events";
import { joinAnswer } from "@/lib/api/write-answers";
import { joinWaitlist, joinWaitlistWithoutBlocking, runJoinJobs } from "@/lib/domain/joining/join";
import { JoinRefused, matchInputs, type JoinInput } from "@/lib/domain/joining/join-input";
import { REFERRAL_CODE_PATTERN } from "@/lib/domain/joining/referral-code";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const fields = [
  { label: "Company", type: "text" as const, required: true },
  { label: "Plan", type: "choice" as const, options: ["Free", "Pro"], required: false },
];

async function refusal(run: () => unknown): Promise<{ reason: string; message: string }> {
  try {
    await run();
  } catch (error) {
    if (error instanceof JoinRefused) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error("the join was not refused");
}

describe("joinWaitlist", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const join = async (input: Partial<JoinInput> = {}) => await joinWaitlist({ waitlistId, email: "ada@example.com", customInputs: [{ label: "Company", value: "Acme" }], ...input }, temp.db);
  const count = (sql: string) => (temp.db.$client.prepare(sql).get() as { n: number }).n;

  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open", fields }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  it("creates a waiting signup with its place, a referral code and a signup.created event, counted like any signup", async () => {
    const first = await join({ email: "  Ada@Example.com " });
    expect(first).toEqual({
      created: true,
      signup: { id: expect.any(Number), email: "Ada@Example.com", verified: false, referral: false, custom_inputs: [{ label: "Company", value: "Acme" }], status: "waiting", position: 1, referral_code: expect.stringMatching(REFERRAL_CODE_PATTERN) },
    });
    expect((await join({ email: "bob@example.com", customInputs: [{ label: "company", value: "B" }, { label: "Plan", value: "Pro" }] })).signup).toMatchObject({ position: 2, custom_inputs: [{ label: "Company", value: "B" }, { label: "Plan", value: "Pro" }] });
    expect((await signupEvents(first.signup.id, temp.db)).map((event) => event.type)).toEqual(["signup.created"]);
    expect(count("SELECT sum(count) AS n FROM signup_counts WHERE status = 'waiting'")).toBe(2);
    expect(count("SELECT count(*) AS n FROM signup_inputs WHERE label = 'Plan' AND value = 'Pro'")).toBe(1);
  });

  it("answers the existing signup for the same address in any case, creating nothing", async () => {
    const first = await join();
    const again = await join({ email: "ADA@example.COM", customInputs: [{ label: "Company", value: "Other" }] });
    expect(again).toEqual({ created: false, signup: first.signup });
    expect(count("SELECT count(*) AS n FROM signups")).toBe(1);
    expect(count("SELECT count(*) AS n FROM events")).toBe(1);
  });

  it("gives an imported signup a referral code the first time, and the same one after", async () => {
    insertSignups(waitlistId, [{ email: "old@example.com", verified: true, referral: false, customInputs: '[{"label":"x","value":1}]' }], temp.db);
    const first = await join({ email: "old@example.com" });
    expect(first.created).toBe(false);
    expect(first.signup).toMatchObject({ verified: true, custom_inputs: [{ label: "x", value: "1" }], position: 1, referral_code: expect.stringMatching(REFERRAL_CODE_PATTERN) });
    expect((await join({ email: "old@example.com" })).signup.referral_code).toBe(first.signup.referral_code);
  });

  it("a referral code of this waitlist sets referral and referred_by; an unknown one or another list's is ignored", async () => {
    const referrer = (await join()).signup;
    const referred = await join({ email: "bob@example.com", referralCode: referrer.referral_code.toUpperCase() });
    expect(referred.signup.referral).toBe(true);
    expect(temp.db.$client.prepare("SELECT referred_by AS by FROM signups WHERE id = ?").get(referred.signup.id)).toEqual({ by: referrer.id });
    expect((await join({ email: "cy@example.com", referralCode: "nonsense!" })).signup.referral).toBe(false);
    const other = (await createWaitlist({ name: "Other", website: "https://other.example" }, temp.db)).id;
    await updateJoinSettings(other, { joining: "open" }, "cli", temp.db);
    const elsewhere = await joinWaitlist({ waitlistId: other, email: "dee@example.com", customInputs: [], referralCode: referrer.referral_code }, temp.db);
    expect(elsewhere.signup.referral).toBe(false);
    // An erased referrer leaves its referred signup without a referrer.
    await eraseSignup("cli", waitlistId, referrer.id, temp.db);
    expect(temp.db.$client.prepare("SELECT referred_by AS by, referral FROM signups WHERE id = ?").get(referred.signup.id)).toEqual({ by: null, referral: 1 });
  });

  it("refuses an unknown or closed waitlist, an invalid address and inputs that do not match the form, writing nothing", async () => {
    expect(await refusal(() => join({ waitlistId: "00000000-0000-4000-8000-000000000000" }))).toEqual({ reason: "not_found", message: "This waitlist does not exist." });
    expect((await refusal(() => join({ email: "not an address" }))).reason).toBe("invalid_email");
    expect(await refusal(() => join({ customInputs: [] }))).toEqual({ reason: "invalid_inputs", message: 'The field "Company" is required.' });
    expect((await refusal(() => join({ customInputs: [{ label: "Company", value: "A" }, { label: "Plan", value: "Gold" }] }))).message).toBe('"Plan" must be one of: Free, Pro.');
    expect((await refusal(() => join({ customInputs: [{ label: "Company", value: "A" }, { label: "Age", value: "3" }] }))).message).toMatch(/no field "Age"/);
    expect((await refusal(() => join({ customInputs: [{ label: "Company", value: "A" }, { label: "company", value: "B" }] }))).message).toMatch(/answered twice/);
    await updateJoinSettings(waitlistId, { joining: "closed" }, "cli", temp.db);
    expect(await refusal(() => join())).toEqual({ reason: "closed", message: "Acme Beta is not taking signups right now." });
    expect(count("SELECT count(*) AS n FROM signups")).toBe(0);
    expect(count("SELECT count(*) AS n FROM events")).toBe(0);
  });

  it("refuses an answer or an address with a line break, storing nothing", async () => {
    expect(await refusal(() => join({ customInputs: [{ label: "Company", value: "\r\nBcc: x@evil.example" }] }))).toEqual({ reason: "invalid_inputs", message: 'The answer to "Company" contains a line break: answers are one line of plain text.' });
    expect(await refusal(() => join({ email: "ada@example.com\r\nBcc: x@evil.example" }))).toEqual({ reason: "invalid_email", message: "The email address contains a line break." });
    expect(count("SELECT count(*) AS n FROM signups")).toBe(0);
  });

  it("runs a batch in one transaction: a refused join undoes only itself, a duplicate within the batch finds the first", async () => {
    const input = (email: string) => ({ input: { waitlistId, email, customInputs: [{ label: "Company", value: "A" }] } });
    const outcomes = await runJoinJobs([input("one@example.com"), input("not an address"), input("ONE@example.com"), input("two@example.com")], joinAnswer, temp.db);
    const results = outcomes.map((outcome) => ("result" in outcome ? outcome.result : outcome));
    expect(results[1]).toEqual({ refused: { reason: "invalid_email", message: "That is not a valid email address.", retryAfterSeconds: undefined } });
    expect(results[0]).toMatchObject({ reply: { created: true, signup: { position: 1 } } });
    expect(results[2]).toEqual({ reply: { created: false, email: "ONE@example.com", emailSent: false } });
    expect(results[3]).toMatchObject({ reply: { created: true, signup: { position: 2 } } });
    expect(count("SELECT count(*) AS n FROM signups")).toBe(2);
    expect(count("SELECT count(*) AS n FROM events")).toBe(2);
  });

  it("counts a refused attempt in the batch's transaction, outside the join's savepoint: it is kept, and the limit holds for the next batch", async () => {
    const refusedJob = (index: number) => ({ input: { waitlistId, email: "Eve@example.com", customInputs: [{ label: "Nope", value: String(index) }], clientAddress: "192.0.2.5" } });
    const refused = await runJoinJobs(Array.from({ length: 10 }, (_, index) => refusedJob(index)), joinAnswer, temp.db);
    expect(refused.every((outcome) => "result" in outcome && "refused" in outcome.result && outcome.result.refused.reason === "invalid_inputs")).toBe(true);
    expect(count("SELECT count(*) AS n FROM signups")).toBe(0);
    // The 11th attempt, valid this time, is over the per-address limit.
    const [eleventh] = await runJoinJobs([{ input: { waitlistId, email: "eve@example.com", customInputs: [{ label: "Company", value: "A" }], clientAddress: "192.0.2.5" } }], joinAnswer, temp.db);
    expect(eleventh).toMatchObject({ result: { refused: { reason: "rate_limited", message: "Too many attempts with this address: try again later." } } });
    expect(count("SELECT count(*) AS n FROM signups")).toBe(0);
    // The counters were written: the address's (11), the client's (11) and the waitlist's (11).
    expect(temp.db.$client.prepare("SELECT count FROM rate_limits ORDER BY key").pluck().all()).toEqual([11, 11, 11]);
  });

  it("a job that fails in a batch undoes only itself, keeps its count, and the others are stored once", async () => {
    const job = (email: string, key: string, requestHash: string) => ({
      input: { waitlistId, email, customInputs: [{ label: "Company", value: "A" }], clientAddress: "192.0.2.7" },
      recorded: { idempotency: { apiKeyId: "k", key, requestHash } },
    });
    // The second job reuses the first one's Idempotency-Key for another request: it fails (thrown, not refused).
    const outcomes = await runJoinJobs([job("one@example.com", "1", "a"), job("two@example.com", "1", "b"), job("three@example.com", "3", "c")], joinAnswer, temp.db);
    expect(outcomes[0]).toMatchObject({ result: { replayed: false, answer: { code: 201 } } });
    expect(outcomes[1]).toMatchObject({ error: { code: "unprocessable" } });
    expect(outcomes[2]).toMatchObject({ result: { replayed: false, answer: { code: 201 } } });
    expect(temp.db.$client.prepare("SELECT email FROM signups ORDER BY id").pluck().all()).toEqual(["one@example.com", "three@example.com"]);
    expect(count("SELECT count(*) AS n FROM events")).toBe(2);
    expect(count("SELECT count(*) AS n FROM idempotent_requests")).toBe(2);
    // Three attempts from the client, each counted once (the failed job too), though the batch ran twice.
    expect(temp.db.$client.prepare("SELECT count FROM rate_limits WHERE key LIKE 'join.client %'").pluck().get()).toBe(3);
  });

  it("a job for an address already on the list answers nothing stored about it (a replay neither), and emails it a link to its page when email is configured", async () => {
    insertSignups(waitlistId, [{ email: "Known@Example.com", verified: true, referral: true, customInputs: '[{"label":"Company","value":"Secret Corp"}]' }], temp.db);
    const job = (email: string, key: string, emailConfigured: boolean) => ({
      input: { waitlistId, email, customInputs: [{ label: "Company", value: "A" }] },
      recorded: { idempotency: { apiKeyId: "k", key, requestHash: `${email}-${key}` } },
      alreadyOnList: { emailConfigured, publicUrl: "https://waitlist.example" },
    });
    const [first, replay, quiet] = (await runJoinJobs([job(" known@example.com ", "1", true), job(" known@example.com ", "1", true), job("KNOWN@example.com", "2", false)], joinAnswer, temp.db)).map((outcome) => ("result" in outcome ? outcome.result : outcome));
    const alreadyOnList = (email: string, sent: boolean) => ({ code: 200, body: JSON.stringify({ email, already_on_list: true, email_sent: sent }) });
    expect(first).toEqual({ replayed: false, answer: alreadyOnList("known@example.com", true) });
    expect(replay).toEqual({ replayed: true, answer: alreadyOnList("known@example.com", true) });
    expect(quiet).toEqual({ replayed: false, answer: alreadyOnList("KNOWN@example.com", false) });
    const stored = temp.db.$client.prepare("SELECT status, body FROM idempotent_requests ORDER BY key").all();
    expect(stored).toEqual([
      { status: 200, body: '{"email":"known@example.com","already_on_list":true,"email_sent":true}' },
      { status: 200, body: '{"email":"KNOWN@example.com","already_on_list":true,"email_sent":false}' },
    ]);
    for (const row of stored as { body: string }[]) expect(row.body).not.toMatch(/Secret|verified|referral|position|status|Known@Example/);
    // One email, to the address as stored, with a link to its page; none while email is not configured.
    const emails = temp.db.$client.prepare("SELECT recipient, subject, body, event_id AS eventId, event_type AS eventType, state FROM deliveries").all() as { recipient: string; subject: string; body: string; eventId: number | null; eventType: string; state: string }[];
    expect(emails).toEqual([{ recipient: "Known@Example.com", subject: "You're already on the Acme Beta waitlist", body: expect.stringMatching(/https:\/\/waitlist\.example\/join\/[0-9a-f-]{36}\/joined\?t=\S+/), eventId: null, eventType: "already_on_list", state: "pending" }]);
    expect(count("SELECT count(*) AS n FROM signups")).toBe(1);
    expect(count("SELECT count(*) AS n FROM events")).toBe(0);
  });

  it("limits attempts per address (JOINS_PER_ADDRESS_PER_HOUR, 10 by default)", async () => {
    for (let attempt = 0; attempt < 9; attempt++) await join({ email: "limit@example.com" });
    await joinWaitlistWithoutBlocking({ waitlistId, email: "LIMIT@example.com", customInputs: [{ label: "Company", value: "A" }] }, temp.db);
    try {
      await join({ email: "limit@example.com" });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ reason: "rate_limited", retryAfterSeconds: expect.any(Number) });
      expect((error as JoinRefused).retryAfterSeconds).toBeGreaterThan(3500);
    }
    expect((await join({ email: "other@example.com" })).created).toBe(true);
  });
});

describe("matchInputs", () => {
  it.each([
    ["\r\nBcc: x@evil.example", "a line break"],
    ["Acme\nBcc: x", "a line break"],
    ["Acme\u0000", "a NUL character"],
    ["Acme\u0085", "a control character (U+0085)"],
    ["Acme\u001b[31m", "a control character (U+001B)"],
    ["\u202Eexe.gnp", "a bidirectional text control (U+202E)"],
    ["Acme\u2067x", "a bidirectional text control (U+2067)"],
    ["Acme\u200F", "a bidirectional text control (U+200F)"],
  ])("refuses an answer with control or bidi characters (%j), naming the field", async (value, what) => {
    expect(await refusal(() => matchInputs(fields, [{ label: "Company", value }]))).toEqual({ reason: "invalid_inputs", message: `The answer to "Company" contains ${what}: answers are one line of plain text.` });
  });

  it("leaves out an empty optional answer and keeps the form's order and labels", () => {
    expect(matchInputs(fields, [{ label: " plan ", value: " Free " }, { label: "COMPANY", value: "A" }])).toEqual([
      { label: "Company", value: "A" },
      { label: "Plan", value: "Free" },
    ]);
    expect(matchInputs(fields, [{ label: "Company", value: "A" }, { label: "Plan", value: "" }])).toEqual([{ label: "Company", value: "A" }]);
  });
});
