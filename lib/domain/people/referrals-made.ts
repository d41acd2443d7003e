import "server-only";
import { count, eq } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { referrals } from "@/db/schema";
import { preparedOnce, valuePlaceholder } from "@/lib/store/statements";
import type { ReferralState } from "../joining/referrals";

// What a person may know of the friends who joined through their link: how many, in which state
// (../joining/referrals.ts decides the states and counts them; this only reads them), never who.

export interface ReferralsMade {
  joined: number;
  counted: number;
  /** The referrals that do not count (yet), by why not; a state without any is left out. */
  notCounted: Partial<Record<Exclude<ReferralState, "counted">, number>>;
}

export async function referralsMadeBy(signupId: number, db: AppDatabase = getDb()): Promise<ReferralsMade> {
  const tally = preparedOnce(db, "people.referralsMade", () =>
    db.select({ state: referrals.state, count: count() }).from(referrals).where(eq(referrals.referrerId, valuePlaceholder("referrerId"))).groupBy(referrals.state).prepare(),
  );
  const made: ReferralsMade = { joined: 0, counted: 0, notCounted: {} };
  for (const { state, count: n } of await tally.all({ referrerId: signupId })) {
    made.joined += n;
    if (state === "counted") made.counted = n;
    else made.notCounted[state] = n;
  }
  return made;
}
