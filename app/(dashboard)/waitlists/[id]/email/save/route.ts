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
});

// POST /waitlists/{id}/email/save – turn the invitation email on or off, save its template (`emails set`) and its invite links (`waitlists update --invite-url --invite-expiry`)
export const POST = adminPost<typeof schema, { params: Promise<{ id: string }> }>(schema, async ({ input, session, context }) => {
  const { id } = await context.params;
  const settings = await writeWithoutBlocking(() => updateInvitationEmail(auditActorOf(session), id, { enabled: input.enabled === "true", subject: input.subject, body: input.body?.replace(/\r\n/g, "\n"), inviteUrl: input.invite_url, inviteExpiryDays: input.invite_expiry }));
  return seeOther(`/waitlists/${settings.waitlistId}/email?done=saved`);
});
