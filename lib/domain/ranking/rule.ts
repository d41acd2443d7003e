import { z } from "zod";

// A waitlist's ranking rule: how counted referrals (lib/domain/joining/referrals.ts) move a waiting
// signup up the line. Free of database imports: the dashboard's form and the CLI's options read it.
// - first come, first served (the default): the line is the order of joining;
// - `referrals:N`: each counted referral moves the referrer up N places, past the N waiting signups
//   just ahead of it at that moment;
// - `points:P`: a join is worth its time and a counted referral P points, a point being one hour of
//   waiting: each counted referral stands the referrer in line as if it had joined P hours earlier.
// Either may end in `:C`, the most referrals that move one signup (a cap).

export const MAX_RANKING_STEP = 1_000_000;
/** A referral's move walks the places it passes (./move.ts): at most this many. */
export const MAX_PLACES_PER_REFERRAL = 10_000;
/** One point of the `points` rule: an hour of waiting. */
export const POINT_MS = 60 * 60 * 1000;

export type RankingRule = { kind: "first-come" } | { kind: "referrals" | "points"; step: number; cap: number | null };

export const FIRST_COME: RankingRule = { kind: "first-come" };

export const RANKING_RULE_FORMAT = "first-come, referrals:<N>[:<cap>] (move up N places per counted referral) or points:<P>[:<cap>] (a referral is worth P hours of waiting)";

const count = (max: number) => z.coerce.number().int().min(1).max(max);

/** A rule as the CLI and the dashboard write it: `first-come`, `referrals:10`, `points:24:5`. */
export const rankingRuleSchema = z
  .string()
  .trim()
  .transform((text, context): RankingRule => {
    if (text === "first-come") return FIRST_COME;
    const match = /^(referrals|points):([0-9]{1,7})(?::([0-9]{1,7}))?$/.exec(text);
    const step = match && count(MAX_RANKING_STEP).safeParse(match[2]);
    const cap = match?.[3] === undefined ? undefined : count(MAX_RANKING_STEP).safeParse(match[3]);
    if (!match || !step?.success || (cap && !cap.success)) {
      context.addIssue({ code: "custom", message: `must be ${RANKING_RULE_FORMAT}, each number from 1 to ${MAX_RANKING_STEP.toLocaleString("en-US")}` });
      return z.NEVER;
    }
    if (match[1] === "referrals" && step.data > MAX_PLACES_PER_REFERRAL) {
      context.addIssue({ code: "custom", message: `moves at most ${MAX_PLACES_PER_REFERRAL.toLocaleString("en-US")} places per referral (got ${step.data})` });
      return z.NEVER;
    }
    return { kind: match[1] as "referrals" | "points", step: step.data, cap: cap?.success ? cap.data : null };
  });

/** The rule as the CLI writes it (`referrals:10:5`). */
export function formatRankingRule(rule: RankingRule): string {
  if (rule.kind === "first-come") return "first-come";
  return `${rule.kind}:${rule.step}${rule.cap === null ? "" : `:${rule.cap}`}`;
}

/** The rule in words, for the dashboard and the CLI. */
export function describeRankingRule(rule: RankingRule): string {
  if (rule.kind === "first-come") return "First come, first served";
  const cap = rule.cap === null ? "" : ` (for at most ${rule.cap} referral${rule.cap === 1 ? "" : "s"})`;
  if (rule.kind === "referrals") return `Move up ${rule.step} place${rule.step === 1 ? "" : "s"} for each counted referral${cap}`;
  return `Each counted referral is worth ${rule.step} point${rule.step === 1 ? "" : "s"} (an hour of waiting each)${cap}`;
}

/** How many of a signup's counted referrals move it under the rule. */
export function movingReferrals(rule: RankingRule, counted: number): number {
  if (rule.kind === "first-come") return 0;
  return rule.cap === null ? counted : Math.min(counted, rule.cap);
}
