import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { referralCountOf, referralStateOf, referralSummary, referrerOf, topReferrers } from "@/lib/domain/joining/referrals";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { confirmSignup } from "@/lib/domain/verification/confirm";
import { signLinkToken } from "@/lib/domain/verification/link-token";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("referrals", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const join = (email: string, referralCode?: string) => joinWaitlist({ waitlistId, email, customInputs: [], referralCode }, temp.db).signup;
  beforeEach(() => {
    temp = tempDatabase();
    waitlistId = createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db).id;
    updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  it("count each signup's referrals, name its referrer, and rank the top referrers", () => {
    const ada = join("ada@example.com");
    const bob = join("bob@example.com", ada.referral_code);
    join("cy@example.com", ada.referral_code);
    const dee = join("dee@example.com", bob.referral_code);
    expect(referralCountOf(ada.id, temp.db)).toBe(2);
    expect(referralCountOf(dee.id, temp.db)).toBe(0);
    expect(referrerOf(bob.id, temp.db)).toEqual({ id: ada.id, email: "ada@example.com" });
    expect(referrerOf(ada.id, temp.db)).toBeNull();
    expect(topReferrers(waitlistId, 5, temp.db)).toEqual([
      { id: ada.id, email: "ada@example.com", referrals: 2 },
      { id: bob.id, email: "bob@example.com", referrals: 1 },
    ]);
    expect(topReferrers(waitlistId, 1, temp.db)).toHaveLength(1);
  });
});

describe("which referrals count", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const join = (email: string, referralCode?: string) => joinWaitlist({ waitlistId, email, customInputs: [], referralCode }, temp.db).signup;
  const confirm = (signupId: number, now = Date.now()) =>
    confirmSignup(waitlistId, signLinkToken({ purpose: "confirm", waitlistId, signupId, expiresAt: new Date(now + 60_000) }, temp.db), now, temp.db);
  beforeEach(() => {
    temp = tempDatabase();
    waitlistId = createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db).id;
    updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => {
    vi.useRealTimers();
    temp.close();
  });

  it("does not count the referrer's own address again: 30 plus-tagged variants, Gmail's dots and googlemail.com", () => {
    const ada = join("Ada.Lovelace@gmail.com");
    const variants = Array.from({ length: 30 }, (_, index) => join(`ada.lovelace+${index}@gmail.com`, ada.referral_code));
    const dotted = join("a.d.a.l.o.v.e.l.a.c.e+x@googlemail.com", ada.referral_code);
    expect(variants.every((signup) => referralStateOf(signup.id, temp.db) === "lookalike")).toBe(true);
    expect(referralStateOf(dotted.id, temp.db)).toBe("lookalike");
    // Still a referral (and its referrer named), just not counted.
    expect(referrerOf(variants[0]!.id, temp.db)).toEqual({ id: ada.id, email: "Ada.Lovelace@gmail.com" });
    expect(referralCountOf(ada.id, temp.db)).toBe(0);
    expect(topReferrers(waitlistId, 5, temp.db)).toEqual([]);
    // Someone else counts; dots elsewhere than Gmail make another address.
    const other = join("ada.lovelace@example.com", ada.referral_code);
    expect(referralStateOf(other.id, temp.db)).toBe("counted");
    const bob = join("bob@example.com");
    expect(referralStateOf(join("b.o.b@example.com", bob.referral_code).id, temp.db)).toBe("counted");
    expect(referralSummary(waitlistId, 5, temp.db)).toEqual({
      top: [
        { id: ada.id, email: "Ada.Lovelace@gmail.com", referrals: 1 },
        { id: bob.id, email: "bob@example.com", referrals: 1 },
      ],
      notCounted: { unverified: 0, lookalike: 31, daily_limit: 0, flagged: 0, discounted: 0 },
    });
  });

  it("on a list that verifies, counts a referral only once its signup confirms its address", () => {
    updateJoinSettings(waitlistId, { verification: true }, "cli", temp.db);
    const ada = join("ada@example.com");
    const bob = join("bob@example.com", ada.referral_code);
    const cy = join("cy@example.com", ada.referral_code);
    expect([referralStateOf(bob.id, temp.db), referralStateOf(cy.id, temp.db)]).toEqual(["unverified", "unverified"]);
    expect(referralCountOf(ada.id, temp.db)).toBe(0);
    expect(referralSummary(waitlistId, 5, temp.db).notCounted).toEqual({ unverified: 2, lookalike: 0, daily_limit: 0, flagged: 0, discounted: 0 });
    expect(confirm(bob.id)).toBe("confirmed");
    expect(referralStateOf(bob.id, temp.db)).toBe("counted");
    expect(referralCountOf(ada.id, temp.db)).toBe(1);
    expect(topReferrers(waitlistId, 5, temp.db)).toEqual([{ id: ada.id, email: "ada@example.com", referrals: 1 }]);
    // A second confirmation changes nothing.
    expect(confirm(bob.id)).toBe("already");
    expect(referralCountOf(ada.id, temp.db)).toBe(1);
    // A confirmed signup without a referrer has nothing to count.
    expect(confirm(ada.id)).toBe("confirmed");
    expect(referralStateOf(ada.id, temp.db)).toBeNull();
  });

  it(`counts at most REFERRALS_PER_REFERRER_PER_DAY (25) per referrer in 24 hours, at the join and at the confirmation`, () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.UTC(2026, 2, 1, 12);
    vi.setSystemTime(start);
    const ada = join("ada@example.com");
    const bob = join("bob@example.com");
    const referred = Array.from({ length: 27 }, (_, index) => join(`friend${index}@example.com`, ada.referral_code));
    expect(referred.map((signup) => referralStateOf(signup.id, temp.db))).toEqual([...Array(25).fill("counted"), "daily_limit", "daily_limit"]);
    expect(referralCountOf(ada.id, temp.db)).toBe(25);
    // Another referrer has a day of its own.
    expect(referralStateOf(join("bobs.friend@example.com", bob.referral_code).id, temp.db)).toBe("counted");

    // Verification on: an unverified referral confirmed while the day is full does not count, and never will.
    updateJoinSettings(waitlistId, { verification: true }, "cli", temp.db);
    const late = join("late@example.com", ada.referral_code);
    const next = join("next-day@example.com", ada.referral_code);
    expect(confirm(late.id, start + 60_000)).toBe("confirmed");
    expect(referralStateOf(late.id, temp.db)).toBe("daily_limit");

    // 24 hours after the first ones counted, there is room again.
    vi.setSystemTime(start + 24 * 60 * 60 * 1000 + 1);
    expect(confirm(next.id, Date.now())).toBe("confirmed");
    expect(referralStateOf(next.id, temp.db)).toBe("counted");
    expect(referralCountOf(ada.id, temp.db)).toBe(26);
    expect(referralSummary(waitlistId, 5, temp.db).notCounted).toEqual({ unverified: 0, lookalike: 0, daily_limit: 3, flagged: 0, discounted: 0 });
  });

  it("forgets a referral with either signup (erasure)", () => {
    const ada = join("ada@example.com");
    const bob = join("bob@example.com", ada.referral_code);
    join("cy@example.com", bob.referral_code);
    temp.db.$client.prepare("DELETE FROM signups WHERE id = ?").run(bob.id);
    expect(temp.db.$client.prepare("SELECT count(*) FROM referrals").pluck().get()).toBe(0);
  });
});
