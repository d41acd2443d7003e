import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { adminPost, auditActorOf } from "@/lib/dashboard/admin-post";
import { parseReviewSelection } from "@/lib/dashboard/review-selection";
import { FLAG_DECISIONS, isFlagDecision } from "@/lib/domain/fraud/reasons";
import { decideFlags } from "@/lib/domain/fraud/review";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { writeWithoutBlocking } from "@/lib/domain/write-without-blocking";
import { seeOther } from "@/lib/http/form-answers";

const fields = z.record(z.string(), z.string());

// POST /waitlists/{id}/review/{decision}/confirm – approves or discounts the flagged signups its confirmation page showed (`signups review approve|discount`)
export const POST = adminPost<typeof fields, { params: Promise<{ id: string; decision: string }> }>(fields, async ({ input, session, context }) => {
  const { id, decision } = await context.params;
  if (!isFlagDecision(decision)) throw new AppError("not_found", `There is no review decision "${decision.slice(0, 32)}".`);
  const waitlist = await getWaitlistOrThrow(id);
  const chosen = parseReviewSelection(waitlist.id, Object.entries(input));
  await writeWithoutBlocking(async () => await decideFlags(auditActorOf(session), decision, chosen.selection));
  const url = new URL(chosen.returnTo, "http://dashboard.invalid");
  url.searchParams.set("done", FLAG_DECISIONS[decision].past);
  return seeOther(url.pathname + url.search);
});
