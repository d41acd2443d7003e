import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { DuplicateWaitlistNameError, updateWaitlistAs } from "@/lib/domain/waitlists/manage";
import { updateWaitlistSchema } from "@/lib/domain/waitlists/schemas";

// POST /waitlists/{id}/update – rename a waitlist or change its website; a name in use asks again
export const POST = adminPost<typeof updateWaitlistSchema, { params: Promise<{ id: string }> }>(updateWaitlistSchema, async ({ input, session, context }) => {
  const { id } = await context.params;
  try {
    const waitlist = await writeWithoutBlocking(async () => await updateWaitlistAs(auditActorOf(session), id, input));
    return seeOther(`/waitlists/${waitlist.id}?done=updated`);
  } catch (error) {
    if (!(error instanceof DuplicateWaitlistNameError)) throw error;
    const typed = new URLSearchParams({ warn: "duplicate-name", name: input.name ?? "", website: input.website ?? "" });
    return seeOther(`/waitlists/${encodeURIComponent(id)}/edit?${typed}`);
  }
});
