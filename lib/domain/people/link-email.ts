import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups, type Waitlist } from "@/db/schema";
import { singleLine } from "@/lib/core/single-line-text";
import { HOUR_MS, MINUTE_MS } from "@/lib/core/time";
import { writeTransaction } from "@/lib/store/transaction";
import { queueEmailDelivery, recentEmailsOf } from "../deliveries/fan-out";
import type { RenderedEmail } from "../emails/invitation";
import { clientLimitHit } from "../joining/limits";
import { getWaitlist } from "../waitlists/queries";
import { personPagePath } from "../verification/email";
import { personEmailAllowed } from "../verification/email-limit";

// "Already joined? Get your link" on the join page: the address's signup on this list, if any, is
// emailed a new link to its own page. Whoever asks learns nothing: the page answers the same whether
// the address is on the list, and whether the email went (so a limit reached is silent too). Like the
// "already on the list" email: at most one a minute and PERSON_LINK_EMAILS_PER_HOUR an hour per
// signup, and within the address's emails of the hour across every list (../verification/email-limit.ts).

/** The deliveries' `event_type` of this email (it answers no event). */
export const PERSON_LINK_EMAIL = "person_link";
export const PERSON_LINK_EMAILS_PER_HOUR = 3;

/** What happened; only `client_limited` (the asking client's own limit) may be told. */
export type PersonLinkOutcome = "sent" | "not_on_list" | "rate_limited" | "email_not_configured" | "client_limited";

export async function personLinkEmail(waitlist: Pick<Waitlist, "id" | "name">, signup: { id: number; email: string }, publicUrl: string, now = Date.now(), db: AppDatabase = getDb()): Promise<RenderedEmail> {
  return {
    to: signup.email,
    subject: `Your link to the ${singleLine(waitlist.name)} waitlist`,
    text: `Hello,\n\nHere is the link to your own page on the ${singleLine(waitlist.name)} waitlist: your place in line, your referral link and your answers; there you can also download your data or leave the list. The link works for 30 days:\n\n${publicUrl}${await personPagePath(waitlist.id, signup.id, now, db)}\n\nIf you did not ask for it, ignore this email.\n`,
  };
}

/**
 * Emails the signup with this address (any case) on this waitlist a link to its page, within the
 * limits, in one transaction; the request counts against the client's joins of the hour first
 * (`clientAddress`, lib/http/client-address.ts), known address or not.
 */
export async function emailPersonLink(waitlistId: string, address: string, options: { emailConfigured: boolean; publicUrl: string; clientAddress?: string; now?: number }, db: AppDatabase = getDb()): Promise<PersonLinkOutcome> {
  const now = options.now ?? Date.now();
  return await writeTransaction<PersonLinkOutcome>(db, async () => {
    if (options.clientAddress !== undefined && await clientLimitHit(options.clientAddress, now, db) !== undefined) return "client_limited";
    const waitlist = await getWaitlist(waitlistId, db);
    const signup = waitlist && await db
        .select({ id: signups.id, email: signups.email })
        .from(signups)
        .where(and(eq(signups.waitlistId, waitlist.id), sql`lower(${signups.email}) = lower(${address.trim()})`))
        .get();
    if (!waitlist || !signup) return "not_on_list";
    if (!options.emailConfigured) return "email_not_configured";
    const recent = await recentEmailsOf(signup.id, PERSON_LINK_EMAIL, now - HOUR_MS, db);
    if (recent.count >= PERSON_LINK_EMAILS_PER_HOUR || (recent.newest !== null && now - recent.newest < MINUTE_MS)) return "rate_limited";
    if (!(await personEmailAllowed(signup.email, now, db)).allowed) return "rate_limited";
    await queueEmailDelivery({ eventId: null, eventType: PERSON_LINK_EMAIL, waitlistId: waitlist.id, signupId: signup.id, now }, await personLinkEmail(waitlist, signup, options.publicUrl, now, db), true, db);
    return "sent";
  });
}
