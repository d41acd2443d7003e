import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import type { Waitlist } from "@/db/schema";
import { singleLine } from "@/lib/core/single-line-text";
import { writeTransaction } from "@/lib/store/transaction";
import { queueEmailDelivery, recentEmailsOf } from "../deliveries/fan-out";
import type { RenderedEmail } from "../emails/invitation";
import { getSignup } from "../signups/queries";
import type { SignupRow } from "../signups/row";
import { getWaitlist } from "../waitlists/queries";
import { joinedPagePath, personPageFooter } from "./email";
import { personEmailAllowed } from "./email-limit";

// "You are already on the list: here is your page": what someone who types an address the waitlist
// already has causes, instead of seeing that person's page (issue 29). The page and the API answer the
// same for every such address; the person's place and link go only to the address itself. The
// email answers no event, so its delivery has no event_id (migration 0016); its event_type says what it is.

/** The deliveries' `event_type` of this email. */
export const ALREADY_ON_LIST_EMAIL = "already_on_list";
/** At most this many per signup per hour (as for resends of the confirmation email), and one a minute. */
export const ALREADY_ON_LIST_EMAILS_PER_HOUR = 3;
const MIN_GAP_MS = 60_000;
const HOUR_MS = 3_600_000;

export type AlreadyOnListOutcome = { sent: true } | { sent: false; reason: "email_not_configured" | "gone" | "rate_limited"; retryAfterSeconds?: number };

export async function alreadyOnListEmail(waitlist: Pick<Waitlist, "id" | "name">, signup: Pick<SignupRow, "id" | "email">, publicUrl: string, now = Date.now(), db: AppDatabase = getDb()): Promise<RenderedEmail> {
  const page = `${publicUrl}${await joinedPagePath(waitlist.id, signup.id, now, db)}`;
  return {
    to: signup.email,
    subject: `You're already on the ${singleLine(waitlist.name)} waitlist`,
    text: `Hello,\n\nSomeone asked to join the ${singleLine(waitlist.name)} waitlist with this address, and it is already on the list: nothing has changed. Your place in line and your referral link are on your page (the link works for 30 days):\n\n${page}\n\nIf it was not you, ignore this email.\n${await personPageFooter(waitlist.id, signup.id, publicUrl, now, db)}`,
  };
}

/**
 * Queues the "already on the list" email of a signup (pending), unless email is not configured (then
 * nothing is kept: it would only ever say what the person's page says), the signup is gone, or the
 * signup had one within the minute or three within the hour, or its address had its hour's emails
 * across every list (./email-limit.ts). Counted from the deliveries table, so the
 * limit holds across processes and workers. Inside the caller's transaction when there is one.
 */
export async function emailAlreadyOnList(waitlistId: string, signupId: number, options: { emailConfigured: boolean; publicUrl: string; now?: number }, db: AppDatabase = getDb()): Promise<AlreadyOnListOutcome> {
  if (!options.emailConfigured) return { sent: false, reason: "email_not_configured" };
  const now = options.now ?? Date.now();
  return await writeTransaction<AlreadyOnListOutcome>(db, async () => {
    const waitlist = await getWaitlist(waitlistId, db);
    const signup = waitlist && await getSignup(waitlist.id, signupId, db);
    if (!waitlist || !signup) return { sent: false, reason: "gone" };
    const { count, oldest, newest } = await recentEmailsOf(signup.id, ALREADY_ON_LIST_EMAIL, now - HOUR_MS, db);
    if (count >= ALREADY_ON_LIST_EMAILS_PER_HOUR || (newest !== null && now - newest < MIN_GAP_MS)) {
      const waitMs = count >= ALREADY_ON_LIST_EMAILS_PER_HOUR ? oldest! + HOUR_MS - now : newest! + MIN_GAP_MS - now;
      return { sent: false, reason: "rate_limited", retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    const allowance = await personEmailAllowed(signup.email, now, db);
    if (!allowance.allowed) return { sent: false, reason: "rate_limited", retryAfterSeconds: allowance.retryAfterSeconds };
    const email = await alreadyOnListEmail(waitlist, signup, options.publicUrl, now, db);
    await queueEmailDelivery({ eventId: null, eventType: ALREADY_ON_LIST_EMAIL, waitlistId: waitlist.id, signupId: signup.id, now }, email, true, db);
    return { sent: true };
  });
}
