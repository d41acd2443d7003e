import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { deliveries, events, signups } from "@/db/schema";
import { signupPosition } from "../joining/position";
import { referralCodeOf } from "../joining/referral-code";
import { referralStateOf } from "../joining/referrals";
import { signupPublicId } from "../signups/id";
import { getSignup } from "../signups/queries";
import { getWaitlist } from "../waitlists/queries";
import { flagsOf } from "../fraud/flags";
import { reachedMilestonesOf } from "../milestones/reach";
import { referralsMadeBy } from "./referrals-made";

// "Download my data" (/join/{id}/me/download): everything the database keeps about one signup, as JSON
// for that person. Other people appear only as counts: the friends who joined through their link
// (how many, in which state), and whether their own referral counts for whoever referred them, not
// who that is. Webhook deliveries say when the list's owner was told, not where. Not included: the
// rate-limit counters (a keyed hash of the address, gone within the hour) and the audit log, which
// names the signup by id only.

const iso = (at: Date | number | null) => (at === null ? null : new Date(at).toISOString());

/** The person's data, or undefined when the signup is gone. Makes the referral code of an imported signup that has none (a write). */
export async function personalDataOf(waitlistId: string, signupId: number, now = Date.now(), db: AppDatabase = getDb()) {
  const waitlist = await getWaitlist(waitlistId, db);
  const signup = waitlist && await getSignup(waitlist.id, signupId, db);
  if (!waitlist || !signup) return undefined;
  const [stored] = await db.select({ referredBy: signups.referredBy }).from(signups).where(eq(signups.id, signup.id)).all();
  const ownEvents = await db
    .select({ type: events.type, at: sql<number>`${events.createdAt}`, payload: events.payload, body: events.body })
    .from(events)
    .where(and(eq(events.signupId, signup.id), eq(events.waitlistId, waitlist.id)))
    .orderBy(events.id)
    .all();
  const ownDeliveries = await db
    .select({ channel: deliveries.channel, kind: deliveries.eventType, subject: deliveries.subject, state: deliveries.state, createdAt: sql<number>`${deliveries.createdAt}`, lastAttemptAt: sql<number | null>`${deliveries.lastAttemptAt}` })
    .from(deliveries)
    .where(eq(deliveries.signupId, signup.id))
    .orderBy(deliveries.id)
    .all();
  const verifiedAt = ownEvents.findLast((event) => event.type === "signup.verified")?.at ?? null;
  return {
    exported_at: iso(now),
    waitlist: { id: waitlist.id, name: waitlist.name },
    signup: {
      id: signupPublicId(signup.id),
      email: signup.email,
      status: signup.status,
      status_changed_at: iso(signup.statusChangedAt),
      created_at: iso(signup.createdAt),
      position: await signupPosition(waitlist.id, signup.id, db),
    },
    answers: signup.customInputs,
    verification: { verified: signup.verified, verified_at: iso(verifiedAt) },
    referral_code: await referralCodeOf(signup.id, db),
    referred: { through_a_referral_link: signup.referral, referrer_still_on_the_list: stored?.referredBy != null, counts_for_the_referrer: await referralStateOf(signup.id, db) },
    referrals_made: await referralsMadeBy(signup.id, db),
    // What the fraud rules flagged on this signup, and what an admin decided (lib/domain/fraud).
    flags: await flagsOf(signup.id, db),
    milestones_reached: (await reachedMilestonesOf(signup.id, db)).map((milestone) => ({ referrals: milestone.referrals, label: milestone.label, reached_at: iso(milestone.reachedAt) })),
    events: ownEvents.map((event) => ({ type: event.type, at: iso(event.at), payload: JSON.parse(event.payload) as unknown, body: event.body === null ? null : (JSON.parse(event.body) as unknown) })),
    emails: ownDeliveries.filter((each) => each.channel === "email").map((each) => ({ kind: each.kind, subject: each.subject, state: each.state, created_at: iso(each.createdAt), last_attempt_at: iso(each.lastAttemptAt) })),
    webhooks: ownDeliveries.filter((each) => each.channel === "webhook").map((each) => ({ event_type: each.kind, state: each.state, created_at: iso(each.createdAt) })),
  };
}
