import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { updateInvitationEmail } from "@/lib/domain/emails/invitation";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { editorDraftOf, editorFieldsSchema } from "../editor-fields";

// POST /waitlists/{id}/email/save – turn the invitation email on or off, save its template and the reminder's (`emails set`), its invite links, expiry and reminder days (`waitlists update --invite-url --invite-expiry --on-invite-expiry --remind-days`)
export const POST = adminPost<typeof editorFieldsSchema, { params: Promise<{ id: string }> }>(editorFieldsSchema, async ({ input, session, context }) => {
  const { id } = await context.params;
  const settings = await writeWithoutBlocking(async () => await updateInvitationEmail(auditActorOf(session), id, editorDraftOf(input)));
  return seeOther(`/waitlists/${settings.waitlistId}/email?done=saved`);
});
