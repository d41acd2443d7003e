import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DAY_MS } from "@/lib/core/time";
import { fanOutEvents } from "@/lib/domain/deliveries/fan-out";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { mintInviteToken, readInvitation } from "@/lib/domain/invitations/token";
import { lineSlice } from "@/lib/domain/ranking/line";
import { runDueWork } from "@/lib/domain/scheduler/due-work";
import { expireInvitations } from "@/lib/domain/invitations/expire";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const ADMIN = { keyId: "k", keyName: "tests" };
const INVITED_AT = Date.UTC(2026, 10, 2, 9, 0, 0, 0);

describe("the scheduler's due work: expiries and reminders", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  let ids: number[];

  const invite = async (which: number[], at = INVITED_AT) => {
    vi.setSystemTime(at);
    await applyStatusAction(ADMIN, { action: "invite", selection: { waitlistId, ids: which } }, temp.db);
  };
  const statusOf = (id: number) => temp.db.$client.prepare("SELECT status FROM signups WHERE id = ?").pluck().get(id);
  const eventsOf = (type: string) => temp.db.$client.prepare("SELECT signup_id FROM events WHERE type = ? ORDER BY id").pluck().all(type) as number[];
  const audit = (action: string) => temp.db.$client.prepare("SELECT actor, summary FROM audit_log WHERE action = ? ORDER BY id").all(action) as { actor: string; summary: string }[];

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(INVITED_AT - DAY_MS);
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Timed", website: "https://timed.example" }, temp.db)).id;
    insertSignups(waitlistId, ["a", "b", "c", "d", "e"].map((name) => ({ email: `${name}@example.com`, verified: true, referral: false, customInputs: "[]" })), temp.db);
    ids = temp.db.$client.prepare("SELECT id FROM signups ORDER BY id").pluck().all() as number[];
  });
  afterEach(() => {
    temp.close();
    vi.useRealTimers();
  });

  it("requeues an invitation not redeemed in time at the front of the line, with its event, audited as the scheduler; its token reads expired", async () => {
    await updateInvitationEmail(ADMIN, waitlistId, { inviteExpiryDays: 3, inviteUrl: "https://app.example/signup" }, temp.db);
    await invite([ids[2]!, ids[3]!]);
    const token = await mintInviteToken(waitlistId, ids[2]!, INVITED_AT, 3, temp.db);
    expect(await runDueWork(INVITED_AT + 3 * DAY_MS - 1, temp.db)).toMatchObject({ expired: 0, reminded: 0 });
    expect(await runDueWork(INVITED_AT + 3 * DAY_MS, temp.db)).toMatchObject({ expired: 2, reminded: 0 });
    expect([statusOf(ids[2]!), statusOf(ids[3]!)]).toEqual(["waiting", "waiting"]);
    // Ahead of everyone who was waiting, in their own order.
    expect((await lineSlice(waitlistId, undefined, 5, temp.db)).map((key) => key.id)).toEqual([ids[2], ids[3], ids[0], ids[1], ids[4]]);
    expect(eventsOf("signup.invitation_expired")).toEqual([ids[2], ids[3]]);
    expect(audit("signups.expire")).toEqual([{ actor: "scheduler", summary: "2 invitations expired after 3 days: back to waiting at the front of the line" }]);
    // Read before the token's own time runs out: the expiry, not a withdrawal.
    expect(await readInvitation(token, INVITED_AT + DAY_MS, temp.db)).toEqual({ state: "expired" });
    // Run again: nothing twice.
    expect(await runDueWork(INVITED_AT + 10 * DAY_MS, temp.db)).toMatchObject({ expired: 0 });
  });

  it("rejects when the list says so, in batches", async () => {
    await updateInvitationEmail(ADMIN, waitlistId, { onInviteExpiry: "reject" }, temp.db);
    await invite(ids);
    expect(await expireInvitations(INVITED_AT + 14 * DAY_MS, temp.db, 2)).toBe(5);
    expect(ids.map(statusOf)).toEqual(["rejected", "rejected", "rejected", "rejected", "rejected"]);
    expect(audit("signups.expire").map((row) => row.summary)).toEqual(["2 invitations expired after 14 days: rejected", "2 invitations expired after 14 days: rejected", "1 invitation expired after 14 days: rejected"]);
  });

  it("reminds once per invitation, N days before it expires, with its own template and the invite link; a re-invite is reminded again", async () => {
    await updateInvitationEmail(ADMIN, waitlistId, { enabled: true, inviteExpiryDays: 7, reminderDaysBefore: 2, inviteUrl: "https://app.example/signup", reminderSubject: "Hurry, {{waitlist.name}}", reminderBody: "Go: {{invite.url}}" }, temp.db);
    await invite([ids[0]!]);
    expect((await runDueWork(INVITED_AT + 5 * DAY_MS - 1, temp.db)).reminded).toBe(0);
    expect((await runDueWork(INVITED_AT + 5 * DAY_MS, temp.db)).reminded).toBe(1);
    expect((await runDueWork(INVITED_AT + 6 * DAY_MS, temp.db)).reminded).toBe(0);
    expect(eventsOf("signup.invitation_reminder")).toEqual([ids[0]]);
    await fanOutEvents({ limit: 100, emailConfigured: true, publicUrl: "https://waitlist.example", now: INVITED_AT + 5 * DAY_MS }, temp.db);
    const email = temp.db.$client.prepare("SELECT recipient, subject, body FROM deliveries WHERE event_type = 'signup.invitation_reminder'").get() as { recipient: string; subject: string; body: string };
    expect(email).toMatchObject({ recipient: "a@example.com", subject: "Hurry, Timed" });
    const token = new URL(email.body.match(/Go: (\S+)/)![1]!).searchParams.get("invite")!;
    expect((await readInvitation(token, INVITED_AT + 5 * DAY_MS, temp.db)).state).toBe("valid");
    // Withdrawn and invited again: a new invitation, a new reminder.
    vi.setSystemTime(INVITED_AT + 6 * DAY_MS);
    await applyStatusAction(ADMIN, { action: "withdraw", selection: { waitlistId, ids: [ids[0]!] } }, temp.db);
    await invite([ids[0]!], INVITED_AT + 6 * DAY_MS + 1000);
    expect((await runDueWork(INVITED_AT + 11 * DAY_MS + 1000, temp.db)).reminded).toBe(1);
    expect(eventsOf("signup.invitation_reminder")).toEqual([ids[0], ids[0]]);
    expect(audit("signups.remind")).toHaveLength(2);
  });

  it("while the list's invitation emails are off, a reminder is an event for the webhooks and no email", async () => {
    await updateInvitationEmail(ADMIN, waitlistId, { enabled: false, inviteExpiryDays: 7, reminderDaysBefore: 2 }, temp.db);
    await invite([ids[0]!]);
    expect((await runDueWork(INVITED_AT + 5 * DAY_MS, temp.db)).reminded).toBe(1);
    expect(eventsOf("signup.invitation_reminder")).toEqual([ids[0]]);
    await fanOutEvents({ limit: 100, emailConfigured: true, publicUrl: "https://waitlist.example", now: INVITED_AT + 5 * DAY_MS }, temp.db);
    expect(temp.db.$client.prepare("SELECT count(*) FROM deliveries WHERE channel = 'email'").pluck().get()).toBe(0);
  });

  it("refuses a reminder that would not come after the invitation", async () => {
    await expect(updateInvitationEmail(ADMIN, waitlistId, { inviteExpiryDays: 3, reminderDaysBefore: 3 }, temp.db)).rejects.toThrow(/fewer days than the invite links' 3/);
  });
});
