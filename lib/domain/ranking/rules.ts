import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { rankingRules } from "@/db/schema";
import { preparedOnce } from "@/lib/store/statements";
import { FIRST_COME, type RankingRule } from "./rule";

function statements(db: AppDatabase) {
  return preparedOnce(db, "ranking.rules", () => ({
    rule: db
      .select({ rule: rankingRules.rule, step: rankingRules.step, cap: rankingRules.cap })
      .from(rankingRules)
      .where(eq(rankingRules.waitlistId, sql.placeholder("waitlistId")))
      .prepare(),
  }));
}

/** A waitlist's ranking rule: first come, first served when none was set. */
export async function rankingRuleOf(waitlistId: string, db: AppDatabase = getDb()): Promise<RankingRule> {
  const row = await statements(db).rule.get({ waitlistId: waitlistId.toLowerCase() });
  return row ? { kind: row.rule, step: row.step, cap: row.cap } : FIRST_COME;
}

/** Stores a waitlist's rule (first-come removes its row). Call inside the transaction that recomputes the line. */
export async function storeRankingRule(waitlistId: string, rule: RankingRule, db: AppDatabase): Promise<void> {
  if (rule.kind === "first-come") {
    await db.delete(rankingRules).where(eq(rankingRules.waitlistId, waitlistId)).run();
    return;
  }
  const stored = { rule: rule.kind, step: rule.step, cap: rule.cap, updatedAt: new Date() };
  await db.insert(rankingRules).values({ waitlistId, ...stored }).onConflictDoUpdate({ target: rankingRules.waitlistId, set: stored }).run();
}
