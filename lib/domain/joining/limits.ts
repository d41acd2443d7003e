import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { HOUR_MS, MINUTE_MS } from "@/lib/core/time";
import { readCounters, type CounterBatch } from "../limits/counter-batch";
import { hitLimit, personKey } from "../limits/counter";

// The three limits on joins, counted in the database (../limits/counter.ts), so the join page and the API,
// every worker process and a restarted server all count together: per address on a waitlist (someone
// submitting the form again and again), per client address (a script trying many addresses from one
// machine; IPv6 by /64; TRUSTED_PROXY_HOPS decides which address that is) and per waitlist (a flood).
// Every attempt counts against each limit, the refused ones too.

export type JoinLimit = "address" | "client" | "waitlist";

export interface JoinAttempt {
  waitlistId: string;
  email: string;
  /** The client's limiter key (lib/http/client-address.ts, currentClientLimiterKey); none from the CLI or a test. */
  clientAddress?: string;
}

/** A join attempt's counters, the narrowest first. */
export type JoinLimitKeys = [JoinLimit, string][];

const clientKey = async (clientAddress: string, db: AppDatabase) => `join.client ${await personKey(clientAddress, db)}`;

/** Counts one request from a client (a join attempt, or asking for one's link by address): the seconds to wait once past JOINS_PER_CLIENT_PER_HOUR. */
export async function clientLimitHit(clientAddress: string, now = Date.now(), db: AppDatabase = getDb()): Promise<number | undefined> {
  return await hitLimit(await clientKey(clientAddress, db), { limit: env().JOINS_PER_CLIENT_PER_HOUR, windowMs: HOUR_MS }, now, db);
}

/** The counters a join attempt hits. */
export async function joinLimitKeys(attempt: JoinAttempt, db: AppDatabase): Promise<JoinLimitKeys> {
  const waitlistId = attempt.waitlistId.toLowerCase();
  return [
    ["address", `join.address ${waitlistId} ${await personKey(attempt.email.toLowerCase(), db)}`],
    ...(attempt.clientAddress === undefined ? [] : [["client", await clientKey(attempt.clientAddress, db)] as [JoinLimit, string]]),
    ["waitlist", `join.waitlist ${waitlistId}`],
  ];
}

/** Counts one join attempt on a batch's counters: undefined when allowed, else the seconds to wait and which limit refused it (the narrowest first). */
export function hitJoinLimits(counters: CounterBatch, keys: JoinLimitKeys): { retryAfterSeconds: number; limit: JoinLimit } | undefined {
  const limits = env();
  const windows = {
    address: { limit: limits.JOINS_PER_ADDRESS_PER_HOUR, windowMs: HOUR_MS },
    client: { limit: limits.JOINS_PER_CLIENT_PER_HOUR, windowMs: HOUR_MS },
    waitlist: { limit: limits.JOINS_PER_WAITLIST_PER_MINUTE, windowMs: MINUTE_MS },
  };
  const hits = keys.map(([limit, key]) => [limit, counters.hit(key, windows[limit])] as const);
  const refused = hits.find(([, wait]) => wait !== undefined);
  return refused && { limit: refused[0], retryAfterSeconds: refused[1]! };
}

/** Counts one join attempt: undefined when allowed, else the seconds to wait and which limit refused it (the narrowest first). */
export async function joinLimitHit(attempt: JoinAttempt, now = Date.now(), db: AppDatabase = getDb()): Promise<{ retryAfterSeconds: number; limit: JoinLimit } | undefined> {
  const keys = await joinLimitKeys(attempt, db);
  const counters = await readCounters(keys.map(([, key]) => key), now, db);
  const refused = hitJoinLimits(counters, keys);
  await counters.write();
  return refused;
}
