import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { joinSettingsFormSchema, joinSettingsFromForm } from "@/lib/dashboard/join-settings-form";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// POST /waitlists/{id}/join/save – a waitlist's join settings: open or closed, the form's fields, verification, challenge, message, embed origins (`waitlists update --joining …`)
export const POST = adminPost<typeof joinSettingsFormSchema, { params: Promise<{ id: string }> }>(joinSettingsFormSchema, async ({ input, session, context }) => {
  const { id } = await context.params;
  await writeWithoutBlocking(async () => await updateJoinSettings(id, joinSettingsFromForm(input), auditActorOf(session)));
  return seeOther(`/waitlists/${id.toLowerCase()}/join?done=saved`);
});
