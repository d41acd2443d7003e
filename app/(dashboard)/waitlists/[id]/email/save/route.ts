import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { invitationEmailSchema, updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// The editor's fields (an unchecked box is absent, an empty sign-up URL removes it), then the domain's rules: an unknown {{placeholder}} is a 400 that names it.
const schema = z.object({
  enabled: z.literal("true").optional(),
  subject: invitationEmailSchema.shape.subject,
  body: invitationEmailSchema.shape.body,
  invite_url: z
    .string()
    .trim()
    .transform((url) => (url === "" ? null : url))
    .pipe(invitationEmailSchema.shape.inviteUrl.unwrap())
    .optional(),
  invite_expiry: z.string().trim().regex(/^[0-9]{1,6}$/, "must be a whole number of days").transform(Number).pipe(invitationEmailSchema.shape.inviteExpiryDays.unwrap()).optional(),
  on_invite_expiry: invitationEmailSchema.shape.onInviteExpiry,
  // Empty: no reminder.
  remind_days: z
    .string()
    .trim()
    .regex(/^[0-9]{0,6}$/, "must be a whole number of days")
    .transform((days) => (days === "" ? null : Number(days)))
    .pipe(invitationEmailSchema.shape.reminderDaysBefore.unwrap())
    .optional(),
  reminder_subject: invitationEmailSchema.shape.reminderSubject,
  reminder_body: invitationEmailSchema.shape.reminderBody,
});

// POST /waitlists/{id}/email/save – turn the invitation email on or off, save its template and the reminder's (`emails set`), its invite links, expiry and reminder days (`waitlists update --invite-url --invite-expiry --on-invite-expiry --remind-days`)
export const POST = adminPost<typeof schema, { params: Promise<{ id: string }> }>(schema, async ({ input, session, context }) => {
  const { id } = await context.params;
  const settings = await writeWithoutBlocking(() =>
    updateInvitationEmail(auditActorOf(session), id, {
      enabled: input.enabled === "true",
      subject: input.subject,
      body: input.body?.replace(/\r\n/g, "\n"),
      inviteUrl: input.invite_url,
      inviteExpiryDays: input.invite_expiry,
      onInviteExpiry: input.on_invite_expiry,
      reminderDaysBefore: input.remind_days,
      reminderSubject: input.reminder_subject,
      reminderBody: input.reminder_body?.replace(/\r\n/g, "\n"),
    }),
  );
  return seeOther(`/waitlists/${settings.waitlistId}/email?done=saved`);
});
