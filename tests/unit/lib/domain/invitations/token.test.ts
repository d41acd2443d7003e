import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eraseSignup } from "@/lib/domain/signups/erase";
import { getSignup } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { inviteLink } from "@/lib/domain/invitations/link";
import { mintInviteToken, readInvitation } from "@/lib/domain/invitations/token";
import { readLinkToken, signLinkToken } from "@/lib/domain/verification/link-token";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { DAY_MS } from "@/lib/core/time";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const ADMIN = { keyId: "k", keyName: "tests" };
const INVITED_AT = Date.UTC(2026, 10, 2, 9, 0, 0, 123);

describe("invite tokens", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  let signupId: number;

  const act = async (action: "invite" | "withdraw" | "complete", at: number) => {
    vi.setSystemTime(at);
    await applyStatusAction(ADMIN, { action, selection: { waitlistId, ids: [signupId] } }, temp.db);
  };
  const tokenNow = async (days = 14) => mintInviteToken(waitlistId, signupId, (await getSignup(waitlistId, signupId, temp.db))!.statusChangedAt!.getTime(), days, temp.db);

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Invites", website: "https://invites.example" }, temp.db)).id;
    insertSignups(waitlistId, [{ email: "ada@example.com", verified: true, referral: false, customInputs: '[{"label":"Role","value":"Engineer"}]' }], temp.db);
    signupId = temp.db.$client.prepare("SELECT id FROM signups").pluck().get() as number;
  });
  afterEach(() => {
    temp.close();
    vi.useRealTimers();
  });

  it("reads back the invitation it was minted for, until invited-at + the list's expiry", async () => {
    await act("invite", INVITED_AT);
    const token = await tokenNow(3);
    const reading = await readInvitation(token, INVITED_AT + 1000, temp.db);
    expect(reading).toMatchObject({ state: "valid", signup: { id: signupId, email: "ada@example.com", status: "invited" }, claims: { waitlistId, signupId, invitedAt: INVITED_AT } });
    // Good for 3 days from the invitation (to the second), not from the reading.
    expect(reading.state === "valid" && reading.claims.expiresAt.getTime()).toBe(Math.floor((INVITED_AT + 3 * DAY_MS) / 1000) * 1000);
    expect((await readInvitation(token, INVITED_AT + 3 * DAY_MS - 2000, temp.db)).state).toBe("valid");
    expect(await readInvitation(token, INVITED_AT + 3 * DAY_MS, temp.db)).toEqual({ state: "expired" });
  });

  it("a re-invite retires the old token; the new one is valid", async () => {
    await act("invite", INVITED_AT);
    const old = await tokenNow();
    await act("withdraw", INVITED_AT + 60_000);
    expect(await readInvitation(old, INVITED_AT + 61_000, temp.db)).toMatchObject({ state: "withdrawn", signup: { status: "waiting" } });
    await act("invite", INVITED_AT + 120_000);
    const fresh = await tokenNow();
    expect(fresh).not.toBe(old);
    expect(await readInvitation(old, INVITED_AT + 121_000, temp.db)).toMatchObject({ state: "withdrawn", signup: { status: "invited" } });
    expect((await readInvitation(fresh, INVITED_AT + 121_000, temp.db)).state).toBe("valid");
    // Completed through the new invitation: the new token reads redeemed, the old one still withdrawn.
    await act("complete", INVITED_AT + 180_000);
    expect((await readInvitation(fresh, INVITED_AT + 181_000, temp.db)).state).toBe("redeemed");
    expect((await readInvitation(old, INVITED_AT + 181_000, temp.db)).state).toBe("withdrawn");
  });

  it("names no one once the signup is erased", async () => {
    await act("invite", INVITED_AT);
    const token = await tokenNow();
    await eraseSignup(ADMIN, waitlistId, signupId, temp.db);
    expect(await readInvitation(token, INVITED_AT + 1000, temp.db)).toEqual({ state: "unknown" });
  });

  it("refuses forged, altered, other-purpose, other-database and malformed tokens", async () => {
    await act("invite", INVITED_AT);
    const token = await tokenNow();
    const now = INVITED_AT + 1000;
    const [payload, signature] = token.split(".");
    // Another signup's id or another invitation time under the same signature.
    const forged = Buffer.from(`invite.${waitlistId}.${signupId + 1}.${Math.floor((INVITED_AT + 14 * DAY_MS) / 1000)}.${INVITED_AT}`).toString("base64url");
    expect(await readInvitation(`${forged}.${signature}`, now, temp.db)).toEqual({ state: "unknown" });
    expect(await readInvitation(`${payload}.${signature!.slice(0, -2)}AA`, now, temp.db)).toEqual({ state: "unknown" });
    // A person-page token of the same signup is not an invite token.
    const person = await signLinkToken({ purpose: "person", waitlistId, signupId, expiresAt: new Date(now + DAY_MS) }, temp.db);
    expect(await readInvitation(person, now, temp.db)).toEqual({ state: "unknown" });
    const elsewhere = tempDatabase();
    try {
      expect(await readInvitation(token, now, elsewhere.db)).toEqual({ state: "unknown" });
    } finally {
      elsewhere.close();
    }
    for (const junk of ["", "abc", "a.b.c", `${payload}.short`, `${"x".repeat(400)}.${signature}`, `${payload}.${signature}=`]) expect(await readInvitation(junk, now, temp.db)).toEqual({ state: "malformed" });
  });

  it("signs the invitation's time into the token, and only into an invite token", async () => {
    const expiresAt = new Date(INVITED_AT + DAY_MS);
    const token = await signLinkToken({ purpose: "invite", waitlistId, signupId, expiresAt, boundTo: INVITED_AT }, temp.db);
    expect(await readLinkToken(token, "invite", INVITED_AT, temp.db)).toEqual({ ok: true, claims: { purpose: "invite", waitlistId, signupId, expiresAt: new Date(Math.floor(expiresAt.getTime() / 1000) * 1000), boundTo: INVITED_AT } });
    expect(await readLinkToken(token, "person", INVITED_AT, temp.db)).toEqual({ ok: false, reason: "invalid" });
    await expect(signLinkToken({ purpose: "invite", waitlistId, signupId, expiresAt }, temp.db)).rejects.toThrow(/bound/);
    await expect(signLinkToken({ purpose: "person", waitlistId, signupId, expiresAt, boundTo: INVITED_AT }, temp.db)).rejects.toThrow(/bound/);
  });

  it("puts the token on the product's URL as ?invite=, keeping its own query", () => {
    expect(inviteLink("https://app.example/signup", "abc.def")).toBe("https://app.example/signup?invite=abc.def");
    expect(inviteLink("https://app.example/signup?plan=pro#form", "abc.def")).toBe("https://app.example/signup?plan=pro&invite=abc.def#form");
  });
});
