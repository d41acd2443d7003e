import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { env } from "@/lib/core/env";
import { HOUR_MS, MINUTE_MS } from "@/lib/core/time";
import { hitLimit, personKey } from "../limits/counter";

// The three limits on joins, counted in SQLite (../limits/counter.ts), so the join page and the API,
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

/** Counts one request from a client (a join attempt, or asking for one's link by address): the seconds to wait once past JOINS_PER_CLIENT_PER_HOUR. */
export async function clientLimitHit(clientAddress: string, now = Date.now(), db: AppDatabase = getDb()): Promise<number | undefined> {
  return await hitLimit(`join.client ${await personKey(clientAddress, db)}`, { limit: env().JOINS_PER_CLIENT_PER_HOUR, windowMs: HOUR_MS }, now, db);
}

/** Counts one join attempt: undefined when allowed, else the seconds to wait and which limit refused it (the narrowest first). */
export async function joinLimitHit(attempt: JoinAttempt, now = Date.now(), db: AppDatabase = getDb()): Promise<{ retryAfterSeconds: number; limit: JoinLimit } | undefined> {
  const limits = env();
  const waitlistId = attempt.waitlistId.toLowerCase();
  const hits: [JoinLimit, number | undefined][] = [
    ["address", await hitLimit(`join.address ${waitlistId} ${await personKey(attempt.email.toLowerCase(), db)}`, { limit: limits.JOINS_PER_ADDRESS_PER_HOUR, windowMs: HOUR_MS }, now, db)],
    ["client", attempt.clientAddress === undefined ? undefined : await clientLimitHit(attempt.clientAddress, now, db)],
    ["waitlist", await hitLimit(`join.waitlist ${waitlistId}`, { limit: limits.JOINS_PER_WAITLIST_PER_MINUTE, windowMs: MINUTE_MS }, now, db)],
  ];
  const refused = hits.find(([, wait]) => wait !== undefined);
  return refused && { limit: refused[0], retryAfterSeconds: refused[1]! };
}
