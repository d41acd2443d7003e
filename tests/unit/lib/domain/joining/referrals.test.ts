import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { referralCountOf, referralStateOf, referralSummary, referrerOf, topReferrers } from "@/lib/domain/joining/referrals";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { confirmSignup } from "@/lib/domain/verification/confirm";
import { signLinkToken } from "@/lib/domain/verification/link-token";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { inTurn, upTo } from "@/tests/support/in-turn";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("referrals", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId, email, customInputs: [], referralCode }, temp.db)).signup;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  it("count each signup's referrals, name its referrer, and rank the top referrers", async () => {
    const ada = await join("ada@example.com");
    const bob = await join("bob@example.com", ada.referral_code);
    await join("cy@example.com", ada.referral_code);
    const dee = await join("dee@example.com", bob.referral_code);
    expect(await referralCountOf(ada.id, temp.db)).toBe(2);
    expect(await referralCountOf(dee.id, temp.db)).toBe(0);
    expect(await referrerOf(bob.id, temp.db)).toEqual({ id: ada.id, email: "ada@example.com" });
    expect(await referrerOf(ada.id, temp.db)).toBeNull();
    expect(await topReferrers(waitlistId, 5, temp.db)).toEqual([
      { id: ada.id, email: "ada@example.com", referrals: 2 },
      { id: bob.id, email: "bob@example.com", referrals: 1 },
    ]);
    expect(await topReferrers(waitlistId, 1, temp.db)).toHaveLength(1);
  });
});

describe("which referrals count", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId, email, customInputs: [], referralCode }, temp.db)).signup;
  const confirm = async (signupId: number, now = Date.now()) =>
    await confirmSignup(waitlistId, await signLinkToken({ purpose: "confirm", waitlistId, signupId, expiresAt: new Date(now + 60_000) }, temp.db), now, temp.db);
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => {
    vi.useRealTimers();
    temp.close();
  });

  it("does not count the referrer's own address again: 30 plus-tagged variants, Gmail's dots and googlemail.com", async () => {
    const ada = await join("Ada.Lovelace@gmail.com");
    const variants = await inTurn(upTo(30), (index) => join(`ada.lovelace+${index}@gmail.com`, ada.referral_code));
    const dotted = await join("a.d.a.l.o.v.e.l.a.c.e+x@googlemail.com", ada.referral_code);
    expect(new Set(await Promise.all(variants.map((signup) => referralStateOf(signup.id, temp.db))))).toEqual(new Set(["lookalike"]));
    expect(await referralStateOf(dotted.id, temp.db)).toBe("lookalike");
    // Still a referral (and its referrer named), just not counted.
    expect(await referrerOf(variants[0]!.id, temp.db)).toEqual({ id: ada.id, email: "Ada.Lovelace@gmail.com" });
    expect(await referralCountOf(ada.id, temp.db)).toBe(0);
    expect(await topReferrers(waitlistId, 5, temp.db)).toEqual([]);
    // Someone else counts; dots elsewhere than Gmail make another address.
    const other = await join("ada.lovelace@example.com", ada.referral_code);
    expect(await referralStateOf(other.id, temp.db)).toBe("counted");
    const bob = await join("bob@example.com");
    expect(await referralStateOf((await join("b.o.b@example.com", bob.referral_code)).id, temp.db)).toBe("counted");
    expect(await referralSummary(waitlistId, 5, temp.db)).toEqual({
      top: [
        { id: ada.id, email: "Ada.Lovelace@gmail.com", referrals: 1 },
        { id: bob.id, email: "bob@example.com", referrals: 1 },
      ],
      notCounted: { unverified: 0, lookalike: 31, daily_limit: 0, flagged: 0, discounted: 0 },
    });
  });

  it("on a list that verifies, counts a referral only once its signup confirms its address", async () => {
    await updateJoinSettings(waitlistId, { verification: true }, "cli", temp.db);
    const ada = await join("ada@example.com");
    const bob = await join("bob@example.com", ada.referral_code);
    const cy = await join("cy@example.com", ada.referral_code);
    expect([await referralStateOf(bob.id, temp.db), await referralStateOf(cy.id, temp.db)]).toEqual(["unverified", "unverified"]);
    expect(await referralCountOf(ada.id, temp.db)).toBe(0);
    expect((await referralSummary(waitlistId, 5, temp.db)).notCounted).toEqual({ unverified: 2, lookalike: 0, daily_limit: 0, flagged: 0, discounted: 0 });
    expect(await confirm(bob.id)).toBe("confirmed");
    expect(await referralStateOf(bob.id, temp.db)).toBe("counted");
    expect(await referralCountOf(ada.id, temp.db)).toBe(1);
    expect(await topReferrers(waitlistId, 5, temp.db)).toEqual([{ id: ada.id, email: "ada@example.com", referrals: 1 }]);
    // A second confirmation changes nothing.
    expect(await confirm(bob.id)).toBe("already");
    expect(await referralCountOf(ada.id, temp.db)).toBe(1);
    // A confirmed signup without a referrer has nothing to count.
    expect(await confirm(ada.id)).toBe("confirmed");
    expect(await referralStateOf(ada.id, temp.db)).toBeNull();
  });

  it(`counts at most REFERRALS_PER_REFERRER_PER_DAY (25) per referrer in 24 hours, at the join and at the confirmation`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2026, 2, 1, 12);
    vi.setSystemTime(start);
    const ada = await join("ada@example.com");
    const bob = await join("bob@example.com");
    const referred = await inTurn(upTo(27), (index) => join(`friend${index}@example.com`, ada.referral_code));
    expect(await Promise.all(referred.map((signup) => referralStateOf(signup.id, temp.db)))).toEqual([...Array(25).fill("counted"), "daily_limit", "daily_limit"]);
    expect(await referralCountOf(ada.id, temp.db)).toBe(25);
    // Another referrer has a day of its own.
    expect(await referralStateOf((await join("bobs.friend@example.com", bob.referral_code)).id, temp.db)).toBe("counted");

    // Verification on: an unverified referral confirmed while the day is full does not count, and never will.
    await updateJoinSettings(waitlistId, { verification: true }, "cli", temp.db);
    const late = await join("late@example.com", ada.referral_code);
    const next = await join("next-day@example.com", ada.referral_code);
    expect(await confirm(late.id, start + 60_000)).toBe("confirmed");
    expect(await referralStateOf(late.id, temp.db)).toBe("daily_limit");

    // 24 hours after the first ones counted, there is room again.
    vi.setSystemTime(start + 24 * 60 * 60 * 1000 + 1);
    expect(await confirm(next.id, Date.now())).toBe("confirmed");
    expect(await referralStateOf(next.id, temp.db)).toBe("counted");
    expect(await referralCountOf(ada.id, temp.db)).toBe(26);
    expect((await referralSummary(waitlistId, 5, temp.db)).notCounted).toEqual({ unverified: 0, lookalike: 0, daily_limit: 3, flagged: 0, discounted: 0 });
  });

  it("forgets a referral with either signup (erasure)", async () => {
    const ada = await join("ada@example.com");
    const bob = await join("bob@example.com", ada.referral_code);
    await join("cy@example.com", bob.referral_code);
    temp.db.$client.prepare("DELETE FROM signups WHERE id = ?").run(bob.id);
    expect(temp.db.$client.prepare("SELECT count(*) FROM referrals").pluck().get()).toBe(0);
  });
});
