import { z } from "zod";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { seeOther } from "@/lib/http/form-answers";
import { addSchedule, changeSchedule, removeSchedule } from "@/lib/domain/invitations/schedules/store";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";

// The page's forms: a new rule (the domain refuses one it cannot read with a 400 that says why), or a schedule's id with what to do.
const schema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("add"), rule: z.string() }),
  z.object({ action: z.enum(["pause", "resume", "remove"]), id: z.string().regex(/^[1-9][0-9]{0,9}$/, "must be a schedule's id").transform(Number) }),
]);

const DONE = { add: "added", pause: "paused", resume: "resumed", remove: "removed" } as const;

// POST /waitlists/{id}/schedules/save – add, pause, resume or remove a paced invitation (`waitlists schedules --add|--pause|--resume|--remove`)
export const POST = adminPost<typeof schema, { params: Promise<{ id: string }> }>(schema, async ({ input, session, context }) => {
  const { id } = await context.params;
  const actor = auditActorOf(session);
  const schedule = await writeWithoutBlocking(async () => {
    if (input.action === "add") return await addSchedule(actor, id, { rule: input.rule });
    if (input.action === "remove") return await removeSchedule(actor, id, input.id);
    return await changeSchedule(actor, id, input.id, { paused: input.action === "pause" });
  });
  return seeOther(`/waitlists/${schedule.waitlistId}/schedules?done=${DONE[input.action]}`);
});
