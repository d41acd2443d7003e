import { AppError } from "@/lib/core/errors";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { erasedFromDisk, ERASURE_DISK_WAIT_MS } from "@/lib/domain/signups/erase";
import { deleteWaitlistAs } from "@/lib/domain/waitlists/manage";
import { deleteWaitlistSchema } from "@/lib/domain/waitlists/schemas";

// POST /waitlists/{id}/delete/confirm – delete a waitlist and its signups, given its exact name
export const POST = adminPost<typeof deleteWaitlistSchema, { params: Promise<{ id: string }> }>(deleteWaitlistSchema, async ({ input, session, context }) => {
  const { id } = await context.params;
  try {
    await writeWithoutBlocking(async () => await deleteWaitlistAs(auditActorOf(session), id, input));
    return seeOther(`/?done=${(await erasedFromDisk(ERASURE_DISK_WAIT_MS.dashboard)) ? "deleted" : "deleted-on-disk"}`);
  } catch (error) {
    // A mistyped name: back to the confirmation page, which says so; nothing was deleted.
    if (error instanceof AppError && error.parameter === "confirm") return seeOther(`/waitlists/${encodeURIComponent(id)}/delete?error=name`);
    throw error;
  }
});
