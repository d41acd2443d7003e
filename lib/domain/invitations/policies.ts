import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { invitationEmails, waitlists } from "@/db/schema";
import { DAY_MS } from "@/lib/core/time";
import { DEFAULT_INVITE_EXPIRY_DAYS, getInvitationEmail, type InviteExpiryOutcome } from "../emails/invitation";
import { expiryInWords } from "./words";

/** What the scheduler needs of a waitlist's invitations: how long they last, what expiry does, when the reminder goes. */
export interface InvitationPolicy {
  waitlistId: string;
  expiryDays: number;
  onExpiry: InviteExpiryOutcome;
  reminderDaysBefore: number | null;
}

/** Every waitlist's policy (the defaults for one whose invitation email was never saved). */
export async function invitationPolicies(db: AppDatabase = getDb()): Promise<InvitationPolicy[]> {
  return await db
    .select({
      waitlistId: waitlists.id,
      expiryDays: sql<number>`coalesce(${invitationEmails.inviteExpiryDays}, ${DEFAULT_INVITE_EXPIRY_DAYS})`,
      onExpiry: sql<InviteExpiryOutcome>`coalesce(${invitationEmails.onInviteExpiry}, 'requeue')`,
      reminderDaysBefore: invitationEmails.reminderDaysBefore,
    })
    .from(waitlists)
    .leftJoin(invitationEmails, eq(invitationEmails.waitlistId, waitlists.id))
    .all();
}

/** When an invitation made at `invitedAt` (epoch ms) expires under `policy`. */
export function expiresAt(policy: Pick<InvitationPolicy, "expiryDays">, invitedAt: number): number {
  return invitedAt + policy.expiryDays * DAY_MS;
}

/** When the invitation of a signup invited at `invitedAt` expires under its waitlist's setting now. */
export async function invitationExpiresAt(waitlistId: string, invitedAt: Date, db: AppDatabase = getDb()): Promise<number> {
  return expiresAt({ expiryDays: (await getInvitationEmail(waitlistId, db)).inviteExpiryDays }, invitedAt.getTime());
}

/** "expires in 3 days": the invitation of a signup invited at `invitedAt`, as of `now`. */
export async function invitationExpiryWords(waitlistId: string, invitedAt: Date, now = Date.now(), db: AppDatabase = getDb()): Promise<string> {
  return expiryInWords(await invitationExpiresAt(waitlistId, invitedAt, db), now);
}
