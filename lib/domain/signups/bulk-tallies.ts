import { bucketOf } from "../funnel/stats";

// What the insert triggers would derive from new signups, tallied in memory by the bulk writers
// (./bulk-insert.ts for SQLite, ./bulk-insert-pg.ts for PostgreSQL) and written once.

/** One (label, value) pair's count for a verified/referral combination. */
export interface PairTally {
  label: string;
  value: string;
  verified: number;
  referral: number;
  count: number;
}

export function tallyPair<T extends PairTally>(tallies: Map<string, T>, key: string, pair: Omit<T, "count">): void {
  const tally = tallies.get(key);
  if (tally) tally.count++;
  else tallies.set(key, { ...pair, count: 1 } as T);
}

/** The funnel's counts of the added signups (what the trigger funnel_after_insert and its views of migration 0023 would write), tallied in memory. */
export function funnelTally() {
  const stages = new Map<string, number>();
  const durations = new Map<string, number>();
  const bump = (tallies: Map<string, number>, key: string) => tallies.set(key, (tallies.get(key) ?? 0) + 1);
  return {
    add(signup: { day: number; source: string; verified: number; referral: number; createdAt: number; invitedAt: number | null; completedAt: number | null }) {
      const reached = ["joined", signup.referral && "referred", signup.verified && "verified", signup.invitedAt !== null && "invited", signup.completedAt !== null && "completed"];
      for (const stage of reached) if (stage) bump(stages, `${signup.day}\u0000${signup.source}\u0000${stage}`);
      if (signup.invitedAt === null) return;
      bump(durations, `${signup.day}\u0000invite\u0000${bucketOf(signup.invitedAt - signup.createdAt)}`);
      if (signup.completedAt !== null) bump(durations, `${signup.day}\u0000redeem\u0000${bucketOf(signup.completedAt - signup.invitedAt)}`);
    },
    stages: () => [...stages].map(([key, count]): [number, string, string, number] => {
      const [day, source, stage] = key.split("\u0000");
      return [Number(day), source!, stage!, count];
    }),
    durations: () => [...durations].map(([key, count]): [number, string, number, number] => {
      const [day, kind, bucket] = key.split("\u0000");
      return [Number(day), kind!, Number(bucket), count];
    }),
  };
}
