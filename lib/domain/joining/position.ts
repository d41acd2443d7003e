import "server-only";
import { and, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { getDb, type AppDatabase } from "@/db/client";
import { signupCounts, signups } from "@/db/schema";
import { DAY_MS } from "@/lib/core/time";
import { afterPosition, beforePosition } from "@/lib/sqlite/keyset";
import { preparedOnce } from "@/lib/sqlite/statements";
import { SIGNUP_STATUSES } from "../signups/status";

// A signup's place in line: 1 + the waiting signups of its waitlist created before it (by created_at,
// then id, the list's own order). Counted without walking the list: the whole days before its own come
// from signup_counts (a few rows per day), and only its own day is counted in the indexes, every
// signup of that day up to it (signups_waitlist_order_idx) less those that left `waiting`
// (signups_changed_status_idx, which holds only those). Both counts read an index and never the table.
// The day's signups after it are counted first, up to half the day (its total is in signup_counts): a
// signup that just joined has none after it, so a join's own place costs a few index steps however
// big its day (a launch day); only when more than half the day came after it are those before it counted.

// The signup's own place in (created_at, id) order, as keyset.ts writes it: one index range from
// there, however many signups share its created_at (an import without timestamps gives a whole
// list one).
const ITS_PLACE = { createdAt: sql.raw("@at"), id: sql.raw("@id") };
const dialect = new SQLiteSyncDialect();
const AFTER_IT = dialect.sqlToQuery(afterPosition(sql.raw("created_at"), sql.raw("id"), ITS_PLACE)).sql;
const BEFORE_IT = dialect.sqlToQuery(beforePosition(sql.raw("created_at"), sql.raw("id"), ITS_PLACE)).sql;

// Every verified and referral value spelled out, so that SQLite seeks the whole key of signup_counts.
function countedSignups(db: AppDatabase, status: SQL, day: SQL) {
  return db
    .select({ count: sql<number>`coalesce(sum(${signupCounts.count}), 0)` })
    .from(signupCounts)
    .where(and(eq(signupCounts.waitlistId, sql.placeholder("waitlistId")), inArray(signupCounts.verified, [false, true]), inArray(signupCounts.referral, [false, true]), status, day))
    .prepare();
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "joining.position", () => ({
    signup: db
      .select({ status: signups.status, createdAt: sql<number>`${signups.createdAt}` })
      .from(signups)
      .where(and(eq(signups.id, sql.placeholder("id")), eq(signups.waitlistId, sql.placeholder("waitlistId"))))
      .prepare(),
    daysBefore: countedSignups(db, eq(signupCounts.status, "waiting"), lt(signupCounts.day, sql.placeholder("day"))),
    dayTotal: countedSignups(db, inArray(signupCounts.status, SIGNUP_STATUSES), eq(signupCounts.day, sql.placeholder("day"))),
    // Raw below: Drizzle's builder has no INDEXED BY.
    // The signups of the day after this one (created_at, then id), up to @cap.
    dayAfter: db.$client.prepare<{ waitlistId: string; end: number; at: number; id: number; cap: number }, { count: number }>(
      `SELECT count(*) AS count FROM (SELECT 1 FROM signups INDEXED BY signups_waitlist_order_idx
       WHERE waitlist_id = @waitlistId AND ${AFTER_IT} AND created_at < @end LIMIT @cap)`,
    ),
    // Every signup of the day up to this one (created_at, then id), itself excluded.
    dayBefore: db.$client.prepare<{ waitlistId: string; start: number; at: number; id: number }, { count: number }>(
      `SELECT count(*) AS count FROM signups INDEXED BY signups_waitlist_order_idx
       WHERE waitlist_id = @waitlistId AND created_at >= @start AND ${BEFORE_IT}`,
    ),
    // Those of them that are not waiting.
    dayLeft: db.$client.prepare<{ waitlistId: string; start: number; at: number; id: number }, { count: number }>(
      `SELECT count(*) AS count FROM signups INDEXED BY signups_changed_status_idx
       WHERE waitlist_id = @waitlistId AND status <> 'waiting' AND status IN ('invited', 'completed', 'rejected')
         AND created_at >= @start AND ${BEFORE_IT}`,
    ),
  }));
}

/** The signup's place in line, from 1; null when it is not waiting (or not on this waitlist). */
export function signupPosition(waitlistId: string, signupId: number, db: AppDatabase = getDb()): number | null {
  const prepared = statements(db);
  const id = waitlistId.toLowerCase();
  const signup = prepared.signup.get({ id: signupId, waitlistId: id });
  if (!signup || signup.status !== "waiting") return null;
  const day = Math.floor(signup.createdAt / DAY_MS);
  const start = day * DAY_MS;
  const range = { waitlistId: id, start, at: signup.createdAt, id: signupId };
  const dayTotal = prepared.dayTotal.get({ waitlistId: id, day })!.count;
  const cap = Math.ceil(dayTotal / 2);
  const after = prepared.dayAfter.get({ waitlistId: id, end: start + DAY_MS, at: signup.createdAt, id: signupId, cap })!.count;
  const beforeInDay = after < cap ? dayTotal - 1 - after : prepared.dayBefore.get(range)!.count;
  return 1 + prepared.daysBefore.get({ waitlistId: id, day })!.count + beforeInDay - prepared.dayLeft.get(range)!.count;
}
