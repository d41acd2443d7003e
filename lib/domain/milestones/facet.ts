import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { preparedSql } from "@/lib/store/statements";
import type { SignupScope } from "../signups/filter";
import { scopeParams, scopeWhere, shapeKey, shapeOf } from "../signups/scope-sql";

// The `milestone` facet of the signups table: how many signups each milestone's label selects under
// the other active filters (the scope without its own `milestone`). Driven by who reached each
// milestone (signup_milestones_waitlist_idx), each tested against the scope through its signup's row.

/** Per milestone of the waitlist, by step: its label and the signups of the scope (its milestone filter left out) that reached it. */
export async function milestoneFacet(scope: SignupScope, db: AppDatabase = getDb()): Promise<{ label: string; count: number }[]> {
  const others: SignupScope = { ...scope, milestone: undefined };
  const shape = shapeOf(others, "order");
  const statement = preparedSql<{ label: string; count: number }>(db, `milestones.facet:${shapeKey(shape)}`, (d) => {
    return sql`select milestones.label as label, (select count(*) from signup_milestones ${d.crossJoin("lower")} ${signups} on ${signups.id} = signup_milestones.signup_id
        where signup_milestones.waitlist_id = milestones.waitlist_id and signup_milestones.referrals = milestones.referrals and ${scopeWhere(shape, d)}) as count
      from milestones where milestones.waitlist_id = ${sql.placeholder("waitlistId")} order by milestones.referrals`;
  });
  return await statement.all(scopeParams(others));
}
