import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/core/errors";
import { DAY_MS } from "@/lib/core/time";
import { listAudit } from "@/lib/domain/audit/log";
import { fanOutEvents } from "@/lib/domain/deliveries/fan-out";
import { getInvitationEmail, updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { signupEvents } from "@/lib/domain/events";
import { getInvitationOrThrow, redeemInvitation } from "@/lib/domain/invitations/redeem";
import { getSignup } from "@/lib/domain/signups/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const ADMIN = { keyId: "admin-key", keyName: "admin" };
const PRODUCT = { keyId: "redeem-key", keyName: "product" };
const PUBLIC_URL = "https://waitlist.example";
const INVITED_AT = Date.UTC(2026, 10, 2, 9, 0, 0, 0);

describe("invitations: fan-out, look, redeem", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  let signupId: number;

  const emails = () => temp.db.$client.prepare("SELECT body, state FROM deliveries WHERE channel = 'email' AND event_type = 'signup.invited' ORDER BY id").all() as { body: string; state: string }[];
  const tokenIn = (body: string) => new URL(/https:\/\/app\.example\/signup\?\S+/.exec(body)![0]).searchParams.get("invite")!;
  const refusal = async (run: () => unknown) => {
    try {
      await run();
    } catch (error) {
      if (error instanceof AppError) return { code: error.code, detail: error.message };
      throw error;
    }
    throw new Error("not refused");
  };
  const completedEvents = async () => (await signupEvents(signupId, temp.db)).filter((event) => event.type === "signup.completed").length;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(INVITED_AT);
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    insertSignups(waitlistId, [{ email: "ada@example.com", verified: true, referral: false, customInputs: '[{"label":"Role","value":"Engineer"}]' }], temp.db);
    signupId = temp.db.$client.prepare("SELECT id FROM signups").pluck().get() as number;
    await updateInvitationEmail(ADMIN, waitlistId, { enabled: true, body: "Come in: {{invite.url}}\nYour page: {{person.url}}\n", inviteUrl: "https://app.example/signup", inviteExpiryDays: 7 }, temp.db);
    await applyStatusAction(ADMIN, { action: "invite", selection: { waitlistId, ids: [signupId] } }, temp.db);
    await fanOutEvents({ limit: 10, emailConfigured: false, publicUrl: PUBLIC_URL, now: INVITED_AT }, temp.db);
  });
  afterEach(() => {
    temp.close();
    vi.useRealTimers();
  });

  it("saves the invite URL and expiry (audited), and the email carries the invite link and the person's page", async () => {
    expect(await getInvitationEmail(waitlistId, temp.db)).toMatchObject({ inviteUrl: "https://app.example/signup", inviteExpiryDays: 7 });
    expect((await listAudit({ action: "waitlist.invitation_email", limit: 5 }, temp.db))[0]!.summary).toBe("invitation emails on; body changed; invite URL https://app.example/signup; invite links good for 7 days");
    const [email] = emails();
    expect(email!.state).toBe("not_sent");
    expect(email!.body).toMatch(/^Come in: https:\/\/app\.example\/signup\?invite=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\nYour page: https:\/\/waitlist\.example\/join\/[0-9a-f-]+\/me\?t=\S+\n/);
    expect(await getInvitationOrThrow(tokenIn(email!.body), INVITED_AT + 1000, temp.db)).toEqual({
      state: "valid",
      waitlist_id: waitlistId,
      signup: { email: "ada@example.com", verified: true, referral: false, custom_inputs: [{ label: "Role", value: "Engineer" }], status: "invited" },
      invited_at: new Date(INVITED_AT).toISOString(),
      expires_at: new Date(INVITED_AT + 7 * DAY_MS).toISOString(),
    });
  });

  it("refuses a bad invite URL or expiry, changing nothing", async () => {
    for (const input of [{ inviteUrl: "ftp://app.example" }, { inviteUrl: "not a url" }, { inviteExpiryDays: 0 }, { inviteExpiryDays: 366 }, { inviteExpiryDays: 1.5 }]) {
      await expect(updateInvitationEmail(ADMIN, waitlistId, input, temp.db)).rejects.toThrow();
    }
    expect(await getInvitationEmail(waitlistId, temp.db)).toMatchObject({ inviteUrl: "https://app.example/signup", inviteExpiryDays: 7 });
    // An unknown placeholder is refused, the invitation's own links named among the known ones.
    await expect(updateInvitationEmail(ADMIN, waitlistId, { body: "{{invite.link}}" }, temp.db)).rejects.toThrow(/unknown placeholder \{\{invite\.link\}\}.*\{\{invite\.url\}\}/);
  });

  it("redeems once: completed, one signup.completed, audited; a second redeem answers the same and changes nothing", async () => {
    const token = tokenIn(emails()[0]!.body);
    const first = await redeemInvitation(PRODUCT, token, INVITED_AT + 1000, temp.db);
    expect(first).toMatchObject({ state: "redeemed", signup: { status: "completed" } });
    expect((await getSignup(waitlistId, signupId, temp.db))!.status).toBe("completed");
    expect(await completedEvents()).toBe(1);
    expect((await listAudit({ action: "signups.complete", limit: 5 }, temp.db)).map((row) => row.actor)).toEqual([PRODUCT.keyName]);

    vi.setSystemTime(INVITED_AT + 5000);
    expect(await redeemInvitation(PRODUCT, token, INVITED_AT + 5000, temp.db)).toEqual(first);
    expect(await getInvitationOrThrow(token, INVITED_AT + 5000, temp.db)).toEqual(first);
    expect(await completedEvents()).toBe(1);
    expect(await listAudit({ action: "signups.complete", limit: 5 }, temp.db)).toHaveLength(1);
  });

  it("refuses expired, withdrawn, unknown and malformed tokens with a clear detail, changing nothing", async () => {
    const token = tokenIn(emails()[0]!.body);
    expect(await refusal(() => redeemInvitation(PRODUCT, token, INVITED_AT + 7 * DAY_MS, temp.db))).toEqual({ code: "conflict", detail: expect.stringMatching(/expired/) });
    expect(await refusal(() => redeemInvitation(PRODUCT, `${token.slice(0, -3)}AAA`, INVITED_AT, temp.db))).toEqual({ code: "not_found", detail: expect.stringMatching(/No invitation has this token/) });
    expect(await refusal(() => getInvitationOrThrow("garbage", INVITED_AT, temp.db))).toEqual({ code: "invalid_parameter", detail: expect.stringMatching(/not an invite token/) });
    vi.setSystemTime(INVITED_AT + 60_000);
    await applyStatusAction(ADMIN, { action: "withdraw", selection: { waitlistId, ids: [signupId] } }, temp.db);
    expect(await refusal(() => redeemInvitation(PRODUCT, token, INVITED_AT + 61_000, temp.db))).toEqual({ code: "conflict", detail: "This invitation was withdrawn or replaced by a newer one: the signup is waiting now." });
    expect((await getSignup(waitlistId, signupId, temp.db))!.status).toBe("waiting");
    expect(await completedEvents()).toBe(0);
    expect(await listAudit({ action: "signups.complete", limit: 5 }, temp.db)).toEqual([]);
  });

  it("a re-invite's email carries a new token; the first email's link is retired", async () => {
    const first = tokenIn(emails()[0]!.body);
    vi.setSystemTime(INVITED_AT + 60_000);
    await applyStatusAction(ADMIN, { action: "withdraw", selection: { waitlistId, ids: [signupId] } }, temp.db);
    vi.setSystemTime(INVITED_AT + 120_000);
    await applyStatusAction(ADMIN, { action: "invite", selection: { waitlistId, ids: [signupId] } }, temp.db);
    await fanOutEvents({ limit: 10, emailConfigured: false, publicUrl: PUBLIC_URL, now: INVITED_AT + 120_000 }, temp.db);
    const second = tokenIn(emails()[1]!.body);
    expect(second).not.toBe(first);
    expect((await refusal(() => redeemInvitation(PRODUCT, first, INVITED_AT + 121_000, temp.db))).code).toBe("conflict");
    expect((await redeemInvitation(PRODUCT, second, INVITED_AT + 121_000, temp.db)).state).toBe("redeemed");
  });

  it("leaves {{invite.url}} empty while no sign-up URL is set", async () => {
    await updateInvitationEmail(ADMIN, waitlistId, { inviteUrl: null }, temp.db);
    vi.setSystemTime(INVITED_AT + 60_000);
    await applyStatusAction(ADMIN, { action: "withdraw", selection: { waitlistId, ids: [signupId] } }, temp.db);
    await applyStatusAction(ADMIN, { action: "invite", selection: { waitlistId, ids: [signupId] } }, temp.db);
    await fanOutEvents({ limit: 10, emailConfigured: false, publicUrl: PUBLIC_URL, now: INVITED_AT + 60_000 }, temp.db);
    expect(emails()[1]!.body).toMatch(/^Come in: \nYour page: https:\/\/waitlist\.example\/join\//);
  });
});
