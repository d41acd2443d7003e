import { beforeEach, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { joinAnswer } from "@/lib/api/write-answers";
import { joinWaitlist, runJoinJobs, type JoinJob } from "@/lib/domain/joining/join";
import { placesOfNewSignups } from "@/lib/domain/joining/position";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { blockDatabase, SQLITE_AND_PGLITE } from "@/tests/support/each-engine";

// A batch of joins is written set-based (lib/domain/joining/join-batch.ts): one statement finds the
// addresses, one inserts the new signups, one appends their events, and the places of the new ones
// are counted for the first only when nothing else stands among them. Each job must still get what
// it would have got alone, one after the other, on either engine.

const T = Date.UTC(2026, 0, 1);

describe.each(SQLITE_AND_PGLITE)("a batch of joins: $engine", ({ open }) => {
  const database = blockDatabase(open);
  let db!: AppDatabase;
  let waitlistId!: string;
  beforeEach(async () => {
    db = database();
    waitlistId = (await createWaitlist({ name: "Batch", website: "https://batch.example" }, db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", db);
  });
  const count = async (sql: string, ...params: unknown[]) => Number((await db.$engine.prepare(sql).values(params))[0]![0]);
  const job = (email: string, extra: Partial<JoinJob["input"]> = {}, recorded?: JoinJob["recorded"]): JoinJob => ({ input: { waitlistId, email, customInputs: [], ...extra }, recorded });
  const resultsOf = async (jobs: JoinJob[]) => (await runJoinJobs(jobs, joinAnswer, db)).map((outcome) => ("result" in outcome ? outcome.result : outcome));
  const bodyOf = (result: unknown) => JSON.parse((result as { answer: { body: string } }).answer.body) as Record<string, unknown>;

  it("gives each job what it would get alone: new signups in line one after another, a second address finding the first, referrals, flags, refusals and replays", async () => {
    const ada = (await joinWaitlist({ waitlistId, email: "ada@batch.example", customInputs: [] }, db)).signup;
    const results = await resultsOf([
      job("bob@batch.example", { referralCode: ada.referral_code, source: { utm_source: "newsletter" } }),
      job("not an address"),
      job("BOB@batch.example"),
      job("cy@mailinator.com"),
      job("ADA@batch.example"),
      job("dee@batch.example", {}, { idempotency: { apiKeyId: "k", key: "1", requestHash: "h" } }),
      job("dee@batch.example", {}, { idempotency: { apiKeyId: "k", key: "1", requestHash: "h" } }),
      job("eve@batch.example", {}, { idempotency: { apiKeyId: "k", key: "1", requestHash: "other" } }),
    ]);
    expect(results[0]).toMatchObject({ reply: { created: true, signup: { email: "bob@batch.example", referral: true, status: "waiting" } } });
    expect(results[1]).toEqual({ refused: { reason: "invalid_email", message: "That is not a valid email address.", retryAfterSeconds: undefined } });
    expect(results[2]).toEqual({ reply: { created: false, email: "BOB@batch.example", emailSent: false } });
    expect(results[3]).toMatchObject({ reply: { created: true, signup: { email: "cy@mailinator.com" } } });
    expect(results[4]).toEqual({ reply: { created: false, email: "ADA@batch.example", emailSent: false } });
    expect(results[5]).toMatchObject({ replayed: false, answer: { code: 201 } });
    expect(results[6]).toEqual({ replayed: true, answer: (results[5] as { answer: unknown }).answer });
    expect(results[7]).toMatchObject({ error: { code: "unprocessable" } });

    // Ada's referral counted and moved her ahead of nobody (she is first); the new ones stand 2, 3 and 4.
    const bob = (results[0] as { reply: { signup: { id: number; position: number; referral_code: string } } }).reply.signup;
    const cy = (results[3] as { reply: { signup: { id: number; position: number; referral_code: string } } }).reply.signup;
    expect([bob.position, cy.position, bodyOf(results[5]).position]).toEqual([2, 3, 4]);
    expect(new Set([ada.referral_code, bob.referral_code, cy.referral_code, bodyOf(results[5]).referral_code]).size).toBe(4);
    expect(await count("SELECT count(*) FROM signups WHERE waitlist_id = ?", waitlistId)).toBe(4);
    expect(await count("SELECT count(*) FROM events WHERE type = 'signup.created' AND waitlist_id = ?", waitlistId)).toBe(4);
    expect(await count("SELECT count(*) FROM referrals WHERE signup_id = ? AND referrer_id = ?", bob.id, ada.id)).toBe(1);
    expect(await count("SELECT count(*) FROM signups WHERE id = ? AND referred_by = ? AND utm_source = 'newsletter'", bob.id, ada.id)).toBe(1);
    // The disposable address is flagged for review (the waitlist's default policy), the others not.
    expect(await count("SELECT count(*) FROM signup_flags WHERE signup_id = ? AND reason = 'disposable'", cy.id)).toBe(1);
    expect(await count("SELECT count(*) FROM signup_flags WHERE waitlist_id = ?", waitlistId)).toBe(1);
    // Each event's body is the signup as it was stored.
    const bodies = (await db.$engine.prepare("SELECT body FROM events WHERE type = 'signup.created' AND waitlist_id = ? ORDER BY id").values([waitlistId])).map((row) => JSON.parse(String(row[0])) as { data: { signup: { email: string } } });
    expect(bodies.map((body) => body.data.signup.email).sort()).toEqual(["ada@batch.example", "bob@batch.example", "cy@mailinator.com", "dee@batch.example"]);
    expect(await count("SELECT count(*) FROM idempotent_requests WHERE key = '1'")).toBe(1);
  });

  it("has a job of a later round (its Idempotency-Key used earlier in the batch) find an address the first round added", async () => {
    const key = { idempotency: { apiKeyId: "k", key: "later", requestHash: "h" } };
    // The first job of the key is refused (nothing stored for it), so its second joins, in the next round.
    const results = await resultsOf([job("not an address", {}, key), job("hal@batch.example"), job("HAL@batch.example", {}, key), job("HAL@batch.example", {}, key)]);
    expect(results[0]).toEqual({ refused: expect.objectContaining({ reason: "invalid_email" }) });
    expect(results[1]).toMatchObject({ reply: { created: true, signup: { email: "hal@batch.example", position: 1 } } });
    expect(results[2]).toMatchObject({ replayed: false, answer: { code: 200 } });
    expect(results[3]).toEqual({ replayed: true, answer: (results[2] as { answer: unknown }).answer });
    expect(await count("SELECT count(*) FROM signups WHERE waitlist_id = ?", waitlistId)).toBe(1);
  });

  it("counts every attempt of a batch once, in order, refusing those past a limit", async () => {
    // JOINS_PER_ADDRESS_PER_HOUR is 10: the 11th and 12th attempts with one address are refused.
    const results = await resultsOf(Array.from({ length: 12 }, (_, index) => job(index === 0 ? "fay@batch.example" : "FAY@batch.example", { clientAddress: "192.0.2.9" })));
    expect(results.slice(0, 10).every((result) => "reply" in result)).toBe(true);
    expect(results.slice(10)).toEqual([0, 1].map(() => ({ refused: { reason: "rate_limited", message: "Too many attempts with this address: try again later.", retryAfterSeconds: expect.any(Number) } })));
    expect(await count("SELECT count(*) FROM signups WHERE waitlist_id = ?", waitlistId)).toBe(1);
    // The address's counter (the others' of this database's earlier batch have one or two), the client's.
    expect(await count("SELECT max(count) FROM rate_limits WHERE key LIKE 'join.address %'")).toBe(12);
    expect(await count("SELECT count FROM rate_limits WHERE key LIKE 'join.client %'")).toBe(12);
    expect(await count("SELECT count FROM rate_limits WHERE key = ?", `join.waitlist ${waitlistId}`)).toBe(12);
  });

  it("counts each new signup's place when another stands among them", async () => {
    const insert = (email: string, status = "waiting") => db.$engine.prepare("INSERT INTO signups (waitlist_id, email, created_at, status) VALUES (?, ?, ?, ?)").run([waitlistId, email, T, status]);
    for (const name of ["a", "b", "c", "d", "e"]) await insert(`${name}@among.example`);
    const ids = (await db.$engine.prepare("SELECT id FROM signups WHERE waitlist_id = ? ORDER BY id").values([waitlistId])).map((row) => Number(row[0]));
    const [a, b, c, d, e] = ids as [number, number, number, number, number];
    // c is not among the new ones: it stands between them while it waits, and not once invited.
    expect(await placesOfNewSignups(waitlistId, [a, b, d, e], T, db)).toEqual([1, 2, 4, 5]);
    await db.$engine.prepare("UPDATE signups SET status = 'invited' WHERE id = ?").run([c]);
    expect(await placesOfNewSignups(waitlistId, [a, b, d, e], T, db)).toEqual([1, 2, 3, 4]);
    expect(await placesOfNewSignups(waitlistId, [d, e], T, db)).toEqual([3, 4]);
  });
});
