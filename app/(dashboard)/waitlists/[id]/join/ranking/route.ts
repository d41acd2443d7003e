import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { rankingFormSchema } from "@/lib/dashboard/ranking-form";
import { beginRankingRuleChange, restandBatch } from "@/lib/domain/ranking/apply";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { seeOther } from "@/lib/http/form-answers";

// POST /waitlists/{id}/join/ranking – how counted referrals move people up the line (`waitlists update --ranking …`).
// The change's batches are separate writes with a turn of the event loop between them: the server keeps serving.
export const POST = adminPost<typeof rankingFormSchema, { params: Promise<{ id: string }> }>(rankingFormSchema, async ({ input, session, context }) => {
  const { id } = await context.params;
  const change = await writeWithoutBlocking(async () => await beginRankingRuleChange(id, input, auditActorOf(session)));
  for (const batch of change.batches) {
    await new Promise((resolve) => setImmediate(resolve));
    await writeWithoutBlocking(async () => await restandBatch(id, batch));
  }
  return seeOther(`/waitlists/${id.toLowerCase()}/join?done=ranking#ranking`);
});
