import { z } from "zod";
import { invitationEmailSchema } from "@/lib/domain/emails/invitation";

// The invitation email editor's fields (./page.tsx), as Save and "Send a test to me" read them: an
// unchecked box is absent, an empty sign-up URL removes it, an empty reminder-days field turns the
// reminder off; then the domain's rules (an unknown {{placeholder}} is a 400 that names it).
export const editorFieldsSchema = z.object({
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

/** A textarea's CRLF line ends made LF. */
const lf = (text: string | undefined) => text?.replace(/\r\n/g, "\n");

/** The fields as the domain takes them. */
export function editorDraftOf(input: z.output<typeof editorFieldsSchema>) {
  return {
    enabled: input.enabled === "true",
    subject: input.subject,
    body: lf(input.body),
    inviteUrl: input.invite_url,
    inviteExpiryDays: input.invite_expiry,
    onInviteExpiry: input.on_invite_expiry,
    reminderDaysBefore: input.remind_days,
    reminderSubject: input.reminder_subject,
    reminderBody: lf(input.reminder_body),
  };
}
