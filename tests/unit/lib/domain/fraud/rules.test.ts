import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FLAG_DECISIONS as STORED_DECISIONS, FLAG_REASONS as STORED_REASONS } from "@/db/schema";
import { signupEvents } from "@/lib/domain/events";
import { isBurst } from "@/lib/domain/fraud/burst";
import { flagFacet } from "@/lib/domain/fraud/facet";
import { flagsOf, pendingFlagCounts, pendingReview } from "@/lib/domain/fraud/flags";
import { FLAG_DECISIONS, FLAG_REASONS } from "@/lib/domain/fraud/reasons";
import { decideFlags, previewReview } from "@/lib/domain/fraud/review";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { JoinRefused } from "@/lib/domain/joining/join-input";
import { referralCountOf, referralStateOf } from "@/lib/domain/joining/referrals";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { listAudit } from "@/lib/domain/audit/log";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("the fraud rules at join", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId, email, customInputs: [], referralCode }, temp.db)).signup;
  const count = (sql: string) => (temp.db.$client.prepare(sql).get() as { n: number }).n;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  it("lists the same reasons and decisions as the schema's CHECKs", () => {
    expect([...STORED_REASONS]).toEqual([...FLAG_REASONS]);
    expect([...STORED_DECISIONS]).toEqual(["pending", ...Object.values(FLAG_DECISIONS).map((decision) => decision.stored)]);
  });

  it("flags a disposable address by default and holds its referral until an admin approves it", async () => {
    const ada = await join("ada@example.com");
    const fake = await join("fake@mailinator.com", ada.referral_code);
    expect(await flagsOf(fake.id, temp.db)).toEqual([{ reason: "disposable", decision: "pending" }]);
    expect(await referralStateOf(fake.id, temp.db)).toBe("flagged");
    expect(await referralCountOf(ada.id, temp.db)).toBe(0);
    expect(await pendingReview(waitlistId, 10, temp.db)).toEqual([{ id: fake.id, email: "fake@mailinator.com", createdAt: expect.any(Date), reasons: ["disposable"] }]);
    expect(await pendingFlagCounts(waitlistId, temp.db)).toEqual({ disposable: 1, lookalike: 0, burst: 0, referral_limit: 0 });
    expect(await previewReview({ waitlistId, ids: [fake.id, ada.id] }, temp.db)).toEqual({ decides: 1, skipped: 1, missing: 0 });

    const outcome = await decideFlags({ keyId: "k", keyName: "admin" }, "approve", { waitlistId, emails: ["FAKE@mailinator.com", "ada@example.com"] }, temp.db);
    expect(outcome).toEqual({ decided: 1, skipped: 1, ids: [fake.id] });
    expect(await referralStateOf(fake.id, temp.db)).toBe("counted");
    expect(await referralCountOf(ada.id, temp.db)).toBe(1);
    expect(await flagsOf(fake.id, temp.db)).toEqual([{ reason: "disposable", decision: "approved" }]);
    expect((await signupEvents(fake.id, temp.db)).map((event) => event.type)).toEqual(["signup.created", "signup.flag_approved"]);
    expect((await listAudit({ action: "signups.flag_approve", limit: 10 }, temp.db)).map((entry) => entry.summary)).toEqual(["approved 1 flagged signup"]);
    expect(await pendingReview(waitlistId, 10, temp.db)).toEqual([]);
  });

  it("refuses a disposable address on a list set to refuse, storing nothing, and ignores it on one set to allow", async () => {
    await updateJoinSettings(waitlistId, { disposable: "refuse" }, "cli", temp.db);
    await expect(join("fake@sub.mailinator.com")).rejects.toThrow(JoinRefused);
    expect(count("SELECT count(*) AS n FROM signups")).toBe(0);
    expect(count("SELECT count(*) AS n FROM events")).toBe(0);
    await updateJoinSettings(waitlistId, { disposable: "allow" }, "cli", temp.db);
    expect(await flagsOf((await join("fake@mailinator.com")).id, temp.db)).toEqual([]);
    await expect(updateJoinSettings(waitlistId, { disposable: "maybe" as never }, "cli", temp.db)).rejects.toThrow(/disposable: must be one of refuse, flag, allow/);
  });

  it("flags a look-alike of the referrer and a referral past the daily limit; discounting makes the referral never count", async () => {
    const ada = await join("ada@gmail.com");
    const twin = await join("a.d.a+2@gmail.com", ada.referral_code);
    expect(await flagsOf(twin.id, temp.db)).toEqual([{ reason: "lookalike", decision: "pending" }]);
    expect(await referralStateOf(twin.id, temp.db)).toBe("lookalike");
    await decideFlags("cli", "discount", { waitlistId, ids: [twin.id] }, temp.db);
    expect(await referralStateOf(twin.id, temp.db)).toBe("discounted");
    expect((await signupEvents(twin.id, temp.db)).map((event) => event.type)).toEqual(["signup.created", "signup.flag_discounted"]);
    await expect(decideFlags("cli", "approve", { waitlistId, ids: [twin.id] }, temp.db)).rejects.toThrow(/None of these signups is waiting for review/);
    await expect(decideFlags("cli", "approve", { waitlistId, emails: ["nobody@example.com"] }, temp.db)).rejects.toThrow(/None of these signups is on this waitlist/);
  });

  it("counts the flag facet under the other filters, leaving out its own", async () => {
    const ada = await join("ada@example.com");
    await join("one@mailinator.com", ada.referral_code);
    await join("two@mailinator.com");
    await join("ada+1@example.com", ada.referral_code);
    const none = { disposable: 0, lookalike: 0, burst: 0, referral_limit: 0 };
    expect(await flagFacet({ waitlistId }, temp.db)).toEqual({ ...none, disposable: 2, lookalike: 1 });
    expect(await flagFacet({ waitlistId, referral: true, flag: ["lookalike"] }, temp.db)).toEqual({ ...none, disposable: 1, lookalike: 1 });
    expect(await flagFacet({ waitlistId, emailContains: "two" }, temp.db)).toEqual({ ...none, disposable: 1 });
    await decideFlags("cli", "discount", { waitlistId, emails: ["two@mailinator.com"] }, temp.db);
    expect(await flagFacet({ waitlistId }, temp.db)).toEqual({ ...none, disposable: 1, lookalike: 1 });
  });

  it("erases a signup's flags with it", async () => {
    const fake = await join("fake@mailinator.com");
    await eraseSignup("cli", waitlistId, fake.id, temp.db);
    expect(count("SELECT count(*) AS n FROM signup_flags")).toBe(0);
  });
});

describe("the burst rule", () => {
  let temp: TempDatabase;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => temp.close());

  it("counts new signups per waitlist and client address in a window: the ones past the limit are a burst, never storing the address", async () => {
    const window = { limit: 2, windowMs: 60_000 };
    const hit = async (waitlistId: string, client: string | undefined, at: number) => await isBurst(waitlistId, client, at, temp.db, window);
    expect([await hit("w1", "203.0.113.7", 0), await hit("w1", "203.0.113.7", 1), await hit("w1", "203.0.113.7", 2)]).toEqual([false, false, true]);
    expect(await hit("w2", "203.0.113.7", 3)).toBe(false);
    expect(await hit("w1", "198.51.100.1", 4)).toBe(false);
    expect(await hit("w1", "203.0.113.7", 60_001)).toBe(false);
    expect(await hit("w1", undefined, 5)).toBe(false);
    const keys = (temp.db.$client.prepare("SELECT key FROM rate_limits").all() as { key: string }[]).map((row) => row.key);
    expect(keys.some((key) => key.includes("203.0.113.7"))).toBe(false);
  });
});
