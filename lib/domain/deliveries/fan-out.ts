import "server-only";
import { and, count, eq, gt, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { deliveries, deliverySender, events, webhookEndpoints, type Waitlist } from "@/db/schema";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { getInvitationEmail, renderInvitation, type InvitationEmailSettings, type RenderedEmail } from "../emails/invitation";
import { joinSettingsOf } from "../joining/settings";
import { inviteLink } from "../invitations/link";
import { mintInviteToken } from "../invitations/token";
import { confirmationEmail, personPageFooter, personPagePath } from "../verification/email";
import { EMAIL_OVER_ADDRESS_LIMIT, personEmailAllowed } from "../verification/email-limit";
import { getSignup } from "../signups/queries";
import type { SignupRow } from "../signups/row";
import { getWaitlist } from "../waitlists/queries";
import { milestoneEmail } from "../milestones/email";
import type { OutboxEvent } from "./event-body";

// The outbox, read in order: each event after the sender's `last_event_id` becomes one delivery per
// enabled endpoint that wants it, a `signup.invited` one email when its waitlist sends them, a
// `signup.milestone_reached` one email (lib/domain/milestones/email.ts), and a
// `signup.created` one confirmation email when its waitlist verifies addresses (not yet verified), in
// the same transaction that moves `last_event_id` on. So an event is fanned out exactly once, even by
// a sender that crashed half-way (its transaction rolled back), and every delivery exists in SQLite
// before anything is sent.

/** Said on an email rendered while SMTP_URL is unset: kept, not sent. */
export const EMAIL_NOT_CONFIGURED = "not sent: email is not configured (set SMTP_URL and MAIL_FROM)";

export interface FanOutOptions {
  /** The most events read in one transaction. */
  limit: number;
  /** SMTP_URL is set: emails wait to be sent; otherwise they are kept as not sent. */
  emailConfigured: boolean;
  /** The origin of the links in emails: PUBLIC_URL unless a test says. */
  publicUrl?: string;
  now?: number;
}

export interface EmailOfEvent {
  /** null for an email that answers no event ("already on the list"). */
  eventId: number | null;
  eventType: string;
  waitlistId: string;
  signupId: number | null;
  now: number;
}

function emailInsert(db: AppDatabase) {
  return preparedOnce(db, "fanOut.insert", () =>
    db
      .insert(deliveries)
      .values({
        eventId: valuePlaceholder("eventId"),
        eventType: valuePlaceholder("eventType"),
        waitlistId: valuePlaceholder("waitlistId"),
        signupId: valuePlaceholder("signupId"),
        channel: valuePlaceholder("channel"),
        endpointId: valuePlaceholder("endpointId"),
        recipient: valuePlaceholder("recipient"),
        subject: valuePlaceholder("subject"),
        body: valuePlaceholder("body"),
        state: valuePlaceholder("state"),
        nextAttemptAt: valuePlaceholder("nextAttemptAt"),
        lastError: valuePlaceholder("lastError"),
        createdAt: valuePlaceholder("now"),
      })
      .prepare(),
  );
}

/** Queues one rendered email of an event (pending, or kept as not sent while email is not configured). Inside the caller's transaction. */
export async function queueEmailDelivery(event: EmailOfEvent, email: RenderedEmail, emailConfigured: boolean, db: AppDatabase = getDb()): Promise<void> {
  if (!emailConfigured) return keepUnsentEmail(event, email, EMAIL_NOT_CONFIGURED, db);
  await emailInsert(db).run({ ...event, channel: "email", endpointId: null, recipient: email.to, subject: email.subject, body: email.text, state: "pending", nextAttemptAt: event.now, lastError: null });
}

/** Records an email that will not be sent, with the reason (`last_error`), as the deliveries log shows it. Inside the caller's transaction. */
export async function keepUnsentEmail(event: EmailOfEvent, email: RenderedEmail, reason: string, db: AppDatabase = getDb()): Promise<void> {
  await emailInsert(db).run({ ...event, channel: "email", endpointId: null, recipient: email.to, subject: email.subject, body: email.text, state: "not_sent", nextAttemptAt: null, lastError: reason });
}

/** A signup's emails of one kind queued after `since`: how many, the oldest and the newest (ms), for the limits on sending them again. */
export async function recentEmailsOf(signupId: number, eventType: string, since: number, db: AppDatabase = getDb()): Promise<{ count: number; oldest: number | null; newest: number | null }> {
  const recent = preparedOnce(db, "fanOut.recentEmails", () =>
    db
      .select({ count: count(), oldest: sql<number | null>`min(${deliveries.createdAt})`, newest: sql<number | null>`max(${deliveries.createdAt})` })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.signupId, sql.placeholder("signupId")),
          eq(deliveries.channel, "email"),
          eq(deliveries.eventType, sql.placeholder("eventType")),
          gt(deliveries.createdAt, valuePlaceholder("since")),
        ),
      )
      .prepare(),
  );
  return (await recent.get({ signupId, eventType, since }))!;
}

interface KnownWaitlist {
  waitlist: Waitlist;
  email: InvitationEmailSettings;
  verifies: boolean;
}

/** The newest event already fanned out. */
export async function lastFannedOutEvent(db: AppDatabase = getDb()): Promise<number> {
  return (await db.select({ last: deliverySender.lastEventId }).from(deliverySender).where(eq(deliverySender.name, "sender")).get())?.last ?? 0;
}

function wants(endpoint: { waitlistId: string | null; eventTypes: string[] | null }, event: OutboxEvent): boolean {
  return (endpoint.waitlistId === null || endpoint.waitlistId === event.waitlistId) && (endpoint.eventTypes === null || endpoint.eventTypes.includes(event.type));
}

/** Fans out the next events (at most `limit`); returns how many were read (0: none is waiting). */
export async function fanOutEvents({ limit, emailConfigured, publicUrl = env().PUBLIC_URL, now = Date.now() }: FanOutOptions, db: AppDatabase = getDb()): Promise<number> {
  const readEvents = preparedOnce(db, "fanOut.events", () =>
    db
      .select({ id: events.id, type: events.type, waitlistId: events.waitlistId, signupId: events.signupId, createdAt: sql<number>`${events.createdAt}`, body: sql<string>`${events.body}` })
      .from(events)
      .where(gt(events.id, sql.placeholder("after")))
      .orderBy(events.id)
      .limit(sql.placeholder("limit"))
      .prepare(),
  );
  const insert = emailInsert(db);
  // Most rounds find nothing new: a read says so without taking the write lock.
  const waiting = preparedOnce(db, "fanOut.waiting", () =>
    db
      .select({ found: sql<number>`1` })
      .from(events)
      .where(gt(events.id, db.select({ last: deliverySender.lastEventId }).from(deliverySender).where(eq(deliverySender.name, "sender"))))
      .limit(1)
      .prepare(),
  );
  if (!await waiting.get()) return 0;
  return await writeTransaction(db, async () => {
    const after = await lastFannedOutEvent(db);
    const batch = await readEvents.all({ after, limit });
    if (batch.length === 0) return 0;
    const endpoints = await db.select({ id: webhookEndpoints.id, waitlistId: webhookEndpoints.waitlistId, eventTypes: webhookEndpoints.eventTypes }).from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true)).all();
    // Per waitlist: whether it still exists (a deleted one's events have nowhere to go), its email settings and whether it verifies addresses.
    const waitlistsSeen = new Map<string, KnownWaitlist | undefined>();
    const waitlistOf = async (id: string) => {
      if (!waitlistsSeen.has(id)) {
        const waitlist = await getWaitlist(id, db);
        waitlistsSeen.set(id, waitlist && { waitlist, email: await getInvitationEmail(id, db), verifies: (await joinSettingsOf(id, db)).verification });
      }
      return waitlistsSeen.get(id);
    };
    for (const event of batch) {
      const known = await waitlistOf(event.waitlistId);
      if (!known) continue;
      const common = { eventId: event.id, eventType: event.type, waitlistId: event.waitlistId, signupId: event.signupId, now };
      const targets = endpoints.filter((endpoint) => wants(endpoint, event));
      for (const endpoint of targets) {
        await insert.run({ ...common, channel: "webhook", endpointId: endpoint.id, recipient: null, subject: null, body: event.body, state: "pending", nextAttemptAt: now, lastError: null });
      }
      const email = await emailOf(event, known, publicUrl, now, db);
      // A confirmation is one of the emails anyone can trigger by typing an address: limited per address.
      if (email && emailConfigured && event.type === "signup.created" && !(await personEmailAllowed(email.to, now, db)).allowed) await keepUnsentEmail(common, email, EMAIL_OVER_ADDRESS_LIMIT, db);
      else if (email) await queueEmailDelivery(common, email, emailConfigured, db);
    }
    await db.update(deliverySender).set({ lastEventId: batch.at(-1)!.id }).where(eq(deliverySender.name, "sender")).run();
    return batch.length;
  });
}

/** The email an event sends to its signup, if any: an invitation, a confirmation of the address, or a milestone reached. */
async function emailOf(event: OutboxEvent, known: KnownWaitlist, publicUrl: string, now: number, db: AppDatabase): Promise<RenderedEmail | undefined> {
  if (event.signupId === null) return undefined;
  // A reminder follows its invitation: while a list's invitation emails are off (its product writes its own), so are its reminders; the event still reaches webhooks.
  const invitationEmail = event.type === "signup.invited" || event.type === "signup.invitation_reminder";
  const sends = invitationEmail ? known.email.enabled : event.type === "signup.milestone_reached" || (event.type === "signup.created" && known.verifies);
  if (!sends) return undefined;
  const signup = await getSignup(event.waitlistId, event.signupId, db);
  if (!signup) return undefined;
  if (event.type === "signup.invited") {
    // The token is bound to this event's invitation (its time is the status change's): if the signup was invited again since, this email's link is already retired.
    const invite = known.email.inviteUrl === null ? undefined : inviteLink(known.email.inviteUrl, await mintInviteToken(known.waitlist.id, signup.id, event.createdAt, known.email.inviteExpiryDays, db));
    const links = { invite, person: `${publicUrl}${await personPagePath(known.waitlist.id, signup.id, now, db)}` };
    return renderInvitation(known.email, known.waitlist, signup, await personPageFooter(known.waitlist.id, signup.id, publicUrl, now, db), links);
  }
  if (event.type === "signup.invitation_reminder") return reminderEmail(known, signup, publicUrl, now, db);
  if (event.type === "signup.milestone_reached") return await milestoneEmail(known.waitlist, signup, event.body, publicUrl, now, db);
  return signup.verified ? undefined : await confirmationEmail(known.waitlist, signup, publicUrl, now, db);
}

/** The reminder of a signup still invited (one that redeemed or expired meanwhile gets none), its link for the invitation it is in now. */
async function reminderEmail(known: KnownWaitlist, signup: SignupRow, publicUrl: string, now: number, db: AppDatabase): Promise<RenderedEmail | undefined> {
  if (signup.status !== "invited" || !signup.statusChangedAt) return undefined;
  const invitedAt = signup.statusChangedAt.getTime();
  const invite = known.email.inviteUrl === null ? undefined : inviteLink(known.email.inviteUrl, await mintInviteToken(known.waitlist.id, signup.id, invitedAt, known.email.inviteExpiryDays, db));
  const links = { invite, person: `${publicUrl}${await personPagePath(known.waitlist.id, signup.id, now, db)}` };
  const template = { subject: known.email.reminderSubject, body: known.email.reminderBody };
  return renderInvitation(template, known.waitlist, signup, await personPageFooter(known.waitlist.id, signup.id, publicUrl, now, db), links);
}
