import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { personalDataOf } from "@/lib/domain/people/personal-data";
import { referralsMadeBy } from "@/lib/domain/people/referrals-made";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { confirmSignup } from "@/lib/domain/verification/confirm";
import { signLinkToken, CONFIRM_LINK_LIFETIME_MS } from "@/lib/domain/verification/link-token";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { inTurn } from "@/tests/support/in-turn";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("a person's data and their referrals", () => {
  let temp: TempDatabase;
  let waitlistId: string;

  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open", verification: true, fields: [{ label: "Company", type: "text", required: false }] }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  it("holds the signup, answers, code, verification and events; friends only as counts by state", async () => {
    const ada = (await joinWaitlist({ waitlistId, email: "Ada@Example.com", customInputs: [{ label: "Company", value: "Acme" }] }, temp.db)).signup;
    const code = ada.referral_code;
    const friends = await inTurn(["grace@example.com", "alan@example.com", "ada+again@example.com"], async (email) => (await joinWaitlist({ waitlistId, email, customInputs: [], referralCode: code }, temp.db)).signup);
    const confirmToken = async (signupId: number) => await signLinkToken({ purpose: "confirm", waitlistId, signupId, expiresAt: new Date(Date.now() + CONFIRM_LINK_LIFETIME_MS) }, temp.db);
    expect(await confirmSignup(waitlistId, await confirmToken(friends[0]!.id), Date.now(), temp.db)).toBe("confirmed");
    expect(await confirmSignup(waitlistId, await confirmToken(ada.id), Date.now(), temp.db)).toBe("confirmed");

    expect(await referralsMadeBy(ada.id, temp.db)).toEqual({ joined: 3, counted: 1, notCounted: { unverified: 1, lookalike: 1 } });
    const data = (await personalDataOf(waitlistId, ada.id, Date.UTC(2026, 10, 28), temp.db))!;
    expect(data).toMatchObject({
      exported_at: "2026-11-28T00:00:00.000Z",
      waitlist: { id: waitlistId, name: "Acme Beta" },
      signup: { id: String(ada.id), email: "Ada@Example.com", status: "waiting", status_changed_at: null, position: 1 },
      answers: [{ label: "Company", value: "Acme" }],
      verification: { verified: true },
      referral_code: code,
      referred: { through_a_referral_link: false, referrer_still_on_the_list: false, counts_for_the_referrer: null },
      referrals_made: { joined: 3, counted: 1 },
      webhooks: [],
    });
    expect(data.events.map((event) => event.type)).toEqual(["signup.created", "signup.verified"]);
    expect(data.verification.verified_at).toBe(data.events[1]!.at);
    expect(JSON.stringify(data)).not.toMatch(/grace|alan|again/);

    const friendData = (await personalDataOf(waitlistId, friends[0]!.id, Date.now(), temp.db))!;
    expect(friendData.referred).toEqual({ through_a_referral_link: true, referrer_still_on_the_list: true, counts_for_the_referrer: "counted" });
    expect(friendData.flags).toEqual([]);
    // The look-alike of the referrer was flagged for review: its own data says so.
    expect((await personalDataOf(waitlistId, friends[2]!.id, Date.now(), temp.db))!.flags).toEqual([{ reason: "lookalike", decision: "pending" }]);
    expect(JSON.stringify(friendData)).not.toContain("Ada@Example.com");
  });

  it("is undefined once the signup is erased, or on another list", async () => {
    const ada = (await joinWaitlist({ waitlistId, email: "ada@example.com", customInputs: [] }, temp.db)).signup;
    const other = (await createWaitlist({ name: "Other", website: "https://other.example" }, temp.db)).id;
    expect(await personalDataOf(other, ada.id, Date.now(), temp.db)).toBeUndefined();
    await eraseSignup("cli", waitlistId, ada.id, temp.db);
    expect(await personalDataOf(waitlistId, ada.id, Date.now(), temp.db)).toBeUndefined();
  });
});
