import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { createWaitlistAs, DuplicateWaitlistNameError } from "@/lib/domain/waitlists/manage";
import { createWaitlistSchema } from "@/lib/domain/waitlists/schemas";

// POST /waitlists/create – create a waitlist; a name in use goes to the warning step first
export const POST = adminPost(createWaitlistSchema, async ({ input, session }) => {
  try {
    const waitlist = await writeWithoutBlocking(async () => await createWaitlistAs(auditActorOf(session), input));
    return seeOther(`/waitlists/${waitlist.id}?done=created`);
  } catch (error) {
    if (error instanceof DuplicateWaitlistNameError) return seeOther(`/waitlists/new?${new URLSearchParams({ name: input.name, website: input.website })}`);
    throw error;
  }
});
