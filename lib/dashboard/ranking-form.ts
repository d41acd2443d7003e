import "server-only";
import { z } from "zod";
import { rankingRuleSchema, type RankingRule } from "@/lib/domain/ranking/rule";

// The dashboard's ranking form as a rule: plain HTML fields (it works without JavaScript), the kind
// (`ranking`: first-come, referrals or points), its number (`ranking_step`) and an optional cap
// (`ranking_cap`), written as the CLI writes the rule and parsed by the one rule schema.

export const rankingFormSchema = z
  .object({
    ranking: z.enum(["first-come", "referrals", "points"], { error: "choose first come, first served; places per referral; or points" }),
    ranking_step: z.string().trim().optional(),
    ranking_cap: z.string().trim().optional(),
  })
  .transform(({ ranking, ranking_step: step, ranking_cap: cap }) => rankingRuleText(ranking, step, cap))
  .pipe(rankingRuleSchema);

function rankingRuleText(kind: string, step: string | undefined, cap: string | undefined): string {
  if (kind === "first-come") return kind;
  return `${kind}:${step ?? ""}${cap ? `:${cap}` : ""}`;
}

/** The rule a preview link's query asks for; undefined when it asks for none or a bad one. */
export function rankingPreviewOf(query: Record<string, string | string[] | undefined>): RankingRule | undefined {
  if (typeof query.ranking !== "string") return undefined;
  const parsed = rankingFormSchema.safeParse({ ranking: query.ranking, ranking_step: query.ranking_step, ranking_cap: query.ranking_cap });
  return parsed.success ? parsed.data : undefined;
}
