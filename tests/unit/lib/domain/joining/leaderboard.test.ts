import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { leaderboardRows } from "@/lib/domain/joining/leaderboard";
import { referralPanel } from "@/lib/domain/joining/referral-panel";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { eraseAddress } from "@/lib/domain/signups/erase";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("the leaderboard and the referrals panel", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId, email, customInputs: [], referralCode }, temp.db)).signup;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  it("rank the top referrers by counted referrals, each as a masked address and a count only", async () => {
    const ada = await join("ada.lovelace@mail.example.com");
    const bob = await join("b@example.org", ada.referral_code);
    await join("carl@example.net", ada.referral_code);
    await join("ada.lovelace+2@mail.example.com", ada.referral_code);
    await join("dee@example.net", bob.referral_code);
    expect(await leaderboardRows(waitlistId, temp.db)).toEqual([
      { rank: 1, referrer: "a***@m***.com", referrals: 2 },
      { rank: 2, referrer: "b***@e***.org", referrals: 1 },
    ]);
  });

  it("the panel counts counted referrals, the rest by reason, and flags that name no referrer", async () => {
    const empty = await referralPanel(waitlistId, 5, temp.db);
    expect(empty).toEqual({ top: [], notCounted: { unverified: 0, lookalike: 0, daily_limit: 0, flagged: 0, discounted: 0 }, counted: 0, flaggedWithoutReferrer: 0 });
    insertSignups(waitlistId, [1, 2, 3].map((n) => ({ email: `imported${n}@example.com`, verified: false, referral: true, customInputs: "[]" })), temp.db);
    expect(await referralPanel(waitlistId, 5, temp.db)).toMatchObject({ top: [], counted: 0, flaggedWithoutReferrer: 3 });
    const ada = await join("ada@example.com");
    await join("bob@example.com", ada.referral_code);
    await join("ada+again@example.com", ada.referral_code);
    expect(await referralPanel(waitlistId, 5, temp.db)).toMatchObject({ counted: 1, notCounted: { unverified: 0, lookalike: 1, daily_limit: 0 }, flaggedWithoutReferrer: 3 });
    // An erased referrer takes its referral rows; its referred signups keep the flag and name no one.
    await eraseAddress("cli", { email: "ada@example.com" }, temp.db);
    expect(await referralPanel(waitlistId, 5, temp.db)).toMatchObject({ top: [], counted: 0, flaggedWithoutReferrer: 5 });
  });
});
