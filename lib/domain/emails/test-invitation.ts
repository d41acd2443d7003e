import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { inviteLink } from "../invitations/link";
import { joinSettingsOf } from "../joining/settings";
import type { SignupRow } from "../signups/row";
import { personPageFooterOf } from "../verification/email";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { composeEmail, type ComposedEmail } from "./compose";
import { getInvitationEmail, invitationEmailSchema, PREVIEW_INVITE_TOKEN, renderInvitation, type InvitationEmailInput } from "./invitation";

// "Send a test to me" (the dashboard's invitation email editor): the invitation email, saved or
// edited, rendered for a sample signup at the address the admin typed, with every part a real one
// has (the layout, the footer with the person's page), and links that work nowhere: no invite token
// is minted and no person's page is opened by a test.

export const TEST_SUBJECT_PREFIX = "[Test] ";
/** Where a test email's link to the person's page points (the page refuses the sample token). */
const SAMPLE_PAGE_TOKEN = "SAMPLE";

/** A signup at `to` whose answers to the join form's fields are samples: a choice's first option, else "Sample <label>". */
async function sampleSignup(waitlistId: string, to: string, now: Date, db: AppDatabase): Promise<SignupRow> {
  const customInputs = (await joinSettingsOf(waitlistId, db)).fields.map((field) => ({ label: field.label, value: field.options?.[0] ?? `Sample ${field.label}` }));
  return { id: 0, email: to, verified: true, referral: false, customInputs, createdAt: now, status: "invited", statusChangedAt: now };
}

/** The test email, composed; refused like a save when the draft has an unknown placeholder (a zod error). */
export async function testInvitationEmail(waitlistId: string, to: string, draft: InvitationEmailInput = {}, publicUrl = env().PUBLIC_URL, now = new Date(), db: AppDatabase = getDb()): Promise<ComposedEmail> {
  const fields = invitationEmailSchema.parse(draft);
  const waitlist = await getWaitlistOrThrow(waitlistId, db);
  const saved = await getInvitationEmail(waitlist.id, db);
  const inviteUrl = fields.inviteUrl === undefined ? saved.inviteUrl : fields.inviteUrl;
  const person = `${publicUrl}/join/${waitlist.id}/me?t=${SAMPLE_PAGE_TOKEN}`;
  const links = { invite: inviteUrl === null ? undefined : inviteLink(inviteUrl, PREVIEW_INVITE_TOKEN), person };
  const email = renderInvitation({ subject: fields.subject ?? saved.subject, body: fields.body ?? saved.body }, waitlist, await sampleSignup(waitlist.id, to, now, db), personPageFooterOf(person), links);
  return composeEmail(waitlist.id, { ...email, subject: `${TEST_SUBJECT_PREFIX}${email.subject}` }, publicUrl, db);
}
