import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { milestonesFormSchema } from "@/lib/dashboard/milestones-form";
import { setMilestones } from "@/lib/domain/milestones/store";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { seeOther } from "@/lib/http/form-answers";

// POST /waitlists/{id}/join/milestones – replaces the waitlist's milestones (`waitlists milestones <id> --set …`)
export const POST = adminPost<typeof milestonesFormSchema, { params: Promise<{ id: string }> }>(milestonesFormSchema, async ({ input, session, context }) => {
  const { id } = await context.params;
  const { reachedNow } = await writeWithoutBlocking(async () => await setMilestones(id, input, auditActorOf(session)));
  return seeOther(`/waitlists/${id.toLowerCase()}/join?done=milestones&reached=${reachedNow}#milestones`);
});
