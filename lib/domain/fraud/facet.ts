import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { preparedSql } from "@/lib/store/statements";
import type { SignupScope } from "../signups/filter";
import { scopeParams, scopeWhere, shapeKey, shapeOf } from "../signups/scope-sql";
import { FLAG_REASONS, type FlagReason } from "./reasons";

// The `flag` facet of the signups table: how many signups waiting for review each reason selects under
// the other active filters (the scope without its own `flag`). Driven by the pending flags (few, in
// signup_flags_waitlist_decision_idx), each tested against the scope through its signup's row.

/** Per reason, the signups of the scope (its flag filter left out) with that flag waiting for review. */
export async function flagFacet(scope: SignupScope, db: AppDatabase = getDb()): Promise<Record<FlagReason, number>> {
  const others: SignupScope = { ...scope, flag: undefined };
  const shape = shapeOf(others, "order");
  const statement = preparedSql<{ reason: FlagReason; count: number }>(db, `fraud.flagFacet:${shapeKey(shape)}`, (d) => {
    return sql`select signup_flags.reason as reason, count(*) as count from signup_flags ${d.crossJoin("lower")} ${signups} on ${signups.id} = signup_flags.signup_id
      where signup_flags.waitlist_id = ${sql.placeholder("waitlistId")} and signup_flags.decision = 'pending' and ${scopeWhere(shape, d)}
      group by signup_flags.reason`;
  });
  const counts = Object.fromEntries(FLAG_REASONS.map((reason) => [reason, 0])) as Record<FlagReason, number>;
  for (const { reason, count } of await statement.all(scopeParams(others))) counts[reason] = count;
  return counts;
}
