import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { referralCountOf, referrerOf, topReferrers } from "@/lib/domain/joining/referrals";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
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
