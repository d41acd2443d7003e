import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { rankingFormSchema } from "@/lib/dashboard/ranking-form";
import { setRankingRule } from "@/lib/domain/ranking/apply";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { seeOther } from "@/lib/http/form-answers";

// POST /waitlists/{id}/join/ranking – how counted referrals move people up the line (`waitlists update --ranking …`)
export const POST = adminPost<typeof rankingFormSchema, { params: Promise<{ id: string }> }>(rankingFormSchema, async ({ input, session, context }) => {
  const { id } = await context.params;
  await writeWithoutBlocking(() => setRankingRule(id, input, auditActorOf(session)));
  return seeOther(`/waitlists/${id.toLowerCase()}/join?done=ranking#ranking`);
});
