import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { sendTestInvitation } from "@/lib/delivery/send-test";
import { plainTextResponse } from "@/lib/http/form-answers";
import { editorDraftOf, editorFieldsSchema } from "../editor-fields";

const schema = editorFieldsSchema.extend({ test_to: z.string().trim().pipe(z.email("must be an email address").max(254)) });

// POST /waitlists/{id}/email/send-test – the editor's template (saved or not) with sample data, sent now to the address typed; audited. Answers one sentence (the editor shows it).
export const POST = adminPost<typeof schema, { params: Promise<{ id: string }> }>(schema, async ({ input, session, context }) => {
  const { id } = await context.params;
  const { subject, body, inviteUrl } = editorDraftOf(input);
  const outcome = await sendTestInvitation(auditActorOf(session), id, input.test_to, { subject, body, inviteUrl });
  return outcome.kind === "sent" ? plainTextResponse(200, `Test email sent to ${input.test_to}: the mail server answered “${outcome.response}”.`) : plainTextResponse(502, `Test email not sent to ${input.test_to}: ${outcome.error}`);
});
