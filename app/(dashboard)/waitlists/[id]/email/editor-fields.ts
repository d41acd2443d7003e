import { z } from "zod";
import { invitationEmailSchema } from "@/lib/domain/emails/invitation";

// The invitation email editor's fields (./page.tsx), as Save and "Send a test to me" read them: an
// unchecked box is absent, an empty sign-up URL removes it; then the domain's rules (an unknown
// {{placeholder}} is a 400 that names it).
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
});

/** The fields as the domain takes them (a textarea's CRLF line ends made LF). */
export function editorDraftOf(input: z.output<typeof editorFieldsSchema>) {
  return { enabled: input.enabled === "true", subject: input.subject, body: input.body?.replace(/\r\n/g, "\n"), inviteUrl: input.invite_url, inviteExpiryDays: input.invite_expiry };
}
