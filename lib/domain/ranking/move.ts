import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { keyJustAhead, lineSignup, moveInLine, waitingAhead, type LineKey } from "./line";
import { movingReferrals, POINT_MS, type RankingRule } from "./rule";
import { rankingRuleOf } from "./rules";

/** The key `places` waiting signups ahead of `key`: it steps in before the farthest of them; undefined when none is ahead. */
export async function keyPlacesAhead(waitlistId: string, key: LineKey, places: number, db: AppDatabase): Promise<{ at: number; pos: number } | undefined> {
  // The `places` waiting signups just ahead, and the one ahead of those.
  const ahead = await waitingAhead(waitlistId, key, places + 1, db);
  if (ahead.length === 0) return undefined;
  return keyJustAhead(ahead[Math.min(places, ahead.length) - 1]!, ahead[places]);
}

/** Where one more counted referral stands a waiting signup now at `key` under `rule`; undefined when it stays. */
export async function keyAfterOneReferral(rule: RankingRule, waitlistId: string, key: LineKey, db: AppDatabase): Promise<{ at: number; pos: number } | undefined> {
  if (rule.kind === "points") return { at: key.at - rule.step * POINT_MS, pos: key.pos };
  if (rule.kind !== "referrals") return undefined;
  return await keyPlacesAhead(waitlistId, key, rule.step, db);
}

/**
 * A referral of `referrerId` just counted (inside that write's transaction), its `counted`th: under
 * its waitlist's rule the referrer moves up at once, unless it no longer waits or is past the cap. A
 * place earned is kept: a referral that stops counting later (its signup erased) takes nothing back.
 */
export async function moveForCountedReferral(referrerId: number, counted: number, db: AppDatabase = getDb()): Promise<void> {
  const referrer = await lineSignup(referrerId, db);
  if (!referrer || referrer.status !== "waiting") return;
  const rule = await rankingRuleOf(referrer.waitlistId, db);
  if (movingReferrals(rule, counted) < counted) return;
  const key = await keyAfterOneReferral(rule, referrer.waitlistId, referrer.key, db);
  if (key) await moveInLine(referrerId, key, db);
}

/** A waiting signup moves up `places` places at once (a milestone's reward); one that no longer waits stays. */
export async function movePlacesUp(signupId: number, places: number, db: AppDatabase = getDb()): Promise<void> {
  const signup = await lineSignup(signupId, db);
  if (!signup || signup.status !== "waiting" || places <= 0) return;
  const key = await keyPlacesAhead(signup.waitlistId, signup.key, places, db);
  if (key) await moveInLine(signupId, key, db);
}
