import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { events } from "@/db/schema";
import { env } from "@/lib/core/env";
import { queueEmailDelivery, recentEmailsOf } from "../deliveries/fan-out";
import { getSignup } from "../signups/queries";
import { getWaitlist } from "../waitlists/queries";
import { preparedOnce } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { confirmationEmail } from "./email";
import { personEmailAllowed } from "./email-limit";

/** At most this many confirmation emails per signup per hour (the first included), and one a minute; and per address across all lists, ./email-limit.ts. */
export const RESENDS_PER_HOUR = 3;
const MIN_GAP_MS = 60_000;
const HOUR_MS = 3_600_000;

export type ResendOutcome = { sent: true } | { sent: false; reason: "already_verified" | "gone" | "rate_limited"; retryAfterSeconds?: number };

/**
 * Queues the confirmation email of a signup again (a fresh link), as another delivery of its
 * `signup.created` event. Counted from the deliveries table, so the limit holds across processes:
 * its signup index finds a signup's few rows at once.
 */
export async function resendConfirmation(waitlistId: string, signupId: number, options: { emailConfigured: boolean; publicUrl?: string; now?: number }, db: AppDatabase = getDb()): Promise<ResendOutcome> {
  const now = options.now ?? Date.now();
  const createdEvent = preparedOnce(db, "resend.createdEvent", () =>
    db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.signupId, sql.placeholder("signupId")), eq(events.type, "signup.created")))
      .orderBy(desc(events.id))
      .limit(1)
      .prepare(),
  );
  return await writeTransaction<ResendOutcome>(db, async () => {
    const waitlist = await getWaitlist(waitlistId, db);
    const signup = waitlist && await getSignup(waitlist.id, signupId, db);
    const event = signup && await createdEvent.get({ signupId: signup.id });
    if (!waitlist || !signup || !event) return { sent: false, reason: "gone" };
    if (signup.verified) return { sent: false, reason: "already_verified" };
    const { count, oldest, newest } = await recentEmailsOf(signup.id, "signup.created", now - HOUR_MS, db);
    if (count >= RESENDS_PER_HOUR || (newest !== null && now - newest < MIN_GAP_MS)) {
      const waitMs = count >= RESENDS_PER_HOUR ? oldest! + HOUR_MS - now : newest! + MIN_GAP_MS - now;
      return { sent: false, reason: "rate_limited", retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    // Across all lists, per address (./email-limit.ts): nothing is queued past it.
    const allowance = options.emailConfigured ? await personEmailAllowed(signup.email, now, db) : { allowed: true as const };
    if (!allowance.allowed) return { sent: false, reason: "rate_limited", retryAfterSeconds: allowance.retryAfterSeconds };
    const email = await confirmationEmail(waitlist, signup, options.publicUrl ?? env().PUBLIC_URL, now, db);
    await queueEmailDelivery({ eventId: event.id, eventType: "signup.created", waitlistId: waitlist.id, signupId: signup.id, now }, email, options.emailConfigured, db);
    return { sent: true };
  });
}
