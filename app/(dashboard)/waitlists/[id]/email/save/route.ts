import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { invitationEmailSchema, updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// The editor's fields (an unchecked box is absent), then the domain's rules: an unknown {{placeholder}} is a 400 that names it.
const schema = z.object({ enabled: z.literal("true").optional(), subject: invitationEmailSchema.shape.subject, body: invitationEmailSchema.shape.body });

// POST /waitlists/{id}/email/save – turn the invitation email on or off and save its template (`emails set`)
export const POST = adminPost<typeof schema, { params: Promise<{ id: string }> }>(schema, async ({ input, session, context }) => {
  const { id } = await context.params;
  const settings = await writeWithoutBlocking(() => updateInvitationEmail(auditActorOf(session), id, { enabled: input.enabled === "true", subject: input.subject, body: input.body?.replace(/\r\n/g, "\n") }));
  return seeOther(`/waitlists/${settings.waitlistId}/email?done=saved`);
});
