import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { atOrAfterPosition, beforePosition } from "@/lib/store/keyset";
import type { Dialect } from "@/lib/store/dialect";
import { preparedOnce, preparedSql } from "@/lib/store/statements";
import { idBoundOf, lineSignup, lineSignups, type LineKey } from "../ranking/line";
import { SIGNUP_STATUSES } from "../signups/status";

// A signup's place in line: 1 + the waiting signups of its waitlist whose place key comes before its
// own (lib/domain/ranking/line.ts: (created_at, id), or where referrals moved it). Counted without
// walking the list, as three counts of the signups before the key K:
//   the waiting ones by (created_at, id), moved or not,
//   less the moved ones among those (they no longer stand there),
//   plus the moved ones whose place key comes before K.
// Each count takes whole UTC days from a table of counts per day (signup_counts, moved_signup_counts:
// a few rows per day) and counts only K's own day in an index. For the first, the day's signups
// after K are counted first, up to half the day (its total is in signup_counts): a signup that just
// joined has none after it, so a join's own place costs a few index steps however big its day (a
// launch day); only when more than half the day comes after K are those before it counted.

const placeholder = sql.placeholder;
const K = { createdAt: placeholder("at"), id: placeholder("pos") };
const atOrAfterK = (d: Dialect) => atOrAfterPosition(d, sql.raw("created_at"), sql.raw("id"), K);
const beforeK = (d: Dialect) => beforePosition(d, sql.raw("created_at"), sql.raw("id"), K);

// Every verified and referral value spelled out, so that SQLite seeks the whole key of signup_counts.
const COUNTED = sql.raw("verified IN (0, 1) AND referral IN (0, 1)");

function statements(db: AppDatabase) {
  return preparedOnce(db, "joining.position", () => ({
    // In SQL: Drizzle's builder has no INDEXED BY. A place's counts, one statement for them all: of the
    // whole days before K's day (from the counting tables, a few rows a day),
    //   waiting_days_before: the waiting signups created then;
    //   moved_line_days_before, moved_created_days_before: the moved waiting ones whose place key, or creation, falls then;
    // and of K's own day,
    //   day_total: its signups, whatever their status, and cap, half of them rounded up;
    //   from_k: its signups from K on (created_at, then id), up to `cap`;
    //   left_before_k: those before K that are not waiting;
    //   moved_created_before_k: the waiting moved ones created before K;
    //   moved_line_before_k: the waiting moved ones whose place key comes before K.
    place: preparedSql<{
      waiting_days_before: number;
      moved_line_days_before: number;
      moved_created_days_before: number;
      day_total: number;
      cap: number;
      from_k: number;
      left_before_k: number;
      moved_created_before_k: number;
      moved_line_before_k: number;
    }>(
      db,
      "joining.position.place",
      (d) => sql`WITH day_total AS (SELECT n, (${d.typed(sql.raw("n"), "bigint")} + 1) / 2 AS cap FROM (SELECT coalesce(sum(count), 0) AS n FROM signup_counts
         WHERE waitlist_id = ${placeholder("waitlistId")} AND ${COUNTED} AND status IN (${sql.raw(SIGNUP_STATUSES.map((status) => `'${status}'`).join(", "))}) AND day = ${placeholder("day")})${d.subqueryName("summed")})
       , moved_days_before AS (SELECT coalesce(sum(by_line), 0) AS by_line, coalesce(sum(by_created), 0) AS by_created FROM moved_signup_counts
         WHERE waitlist_id = ${placeholder("waitlistId")} AND day < ${placeholder("day")})
       SELECT (SELECT coalesce(sum(count), 0) FROM signup_counts WHERE waitlist_id = ${placeholder("waitlistId")} AND ${COUNTED} AND status = 'waiting' AND day < ${placeholder("day")}) AS waiting_days_before,
       (SELECT by_line FROM moved_days_before) AS moved_line_days_before, (SELECT by_created FROM moved_days_before) AS moved_created_days_before,
       (SELECT n FROM day_total) AS day_total, (SELECT cap FROM day_total) AS cap,
       (SELECT count(*) FROM (SELECT 1 FROM signups ${d.indexedBy("signups_waitlist_order_idx")}
         WHERE waitlist_id = ${placeholder("waitlistId")} AND ${atOrAfterK(d)} AND created_at < ${placeholder("end")} LIMIT (SELECT cap FROM day_total))${d.subqueryName("found")}) AS from_k,
       (SELECT count(*) FROM signups ${d.indexedBy("signups_changed_status_idx")}
         WHERE waitlist_id = ${placeholder("waitlistId")} AND status <> 'waiting' AND status IN ('invited', 'completed', 'rejected')
           AND created_at >= ${placeholder("start")} AND ${beforeK(d)}) AS left_before_k,
       (SELECT count(*) FROM signups ${d.indexedBy("signups_moved_created_idx")}
         WHERE waitlist_id = ${placeholder("waitlistId")} AND line_at IS NOT NULL AND status = 'waiting' AND created_at >= ${placeholder("start")} AND ${beforeK(d)}) AS moved_created_before_k,
       (SELECT count(*) FROM signups ${d.indexedBy("signups_moved_line_idx")}
         WHERE waitlist_id = ${placeholder("waitlistId")} AND line_at IS NOT NULL AND status = 'waiting' AND line_at >= ${placeholder("start")}
           AND (line_at, line_pos, id) < (${placeholder("at")}, ${placeholder("linePos")}, ${d.seekable(placeholder("id"))})) AS moved_line_before_k`,
    ),
    // Every signup of K's day before it (when more than half the day is: from_k reached its cap).
    dayBeforeK: preparedSql<{ count: number }>(
      db,
      "joining.position.dayBeforeK",
      (d) => sql`SELECT count(*) AS count FROM signups ${d.indexedBy("signups_waitlist_order_idx")}
       WHERE waitlist_id = ${placeholder("waitlistId")} AND created_at >= ${placeholder("start")} AND ${beforeK(d)}`,
    ),
  }));
}

/** Where `key` stands among the waiting signups: how many joined before it (wherever moved), and how many stand before it. */
interface PlaceCounts {
  joinedBefore: number;
  standingBefore: number;
}

async function placeCounts(waitlistId: string, key: LineKey, db: AppDatabase): Promise<PlaceCounts> {
  const prepared = statements(db);
  const day = Math.floor(key.at / DAY_MS);
  const start = day * DAY_MS;
  // A moved signup's pos is a fraction: (created_at, id) is compared with it as the integer that orders the same (ranking/line.ts).
  const range = { waitlistId, start, at: key.at, pos: idBoundOf(key.pos, "ahead") };
  const counts = (await prepared.place.get({ ...range, day, end: start + DAY_MS, linePos: key.pos, id: key.id }))!;
  const count = (column: keyof typeof counts) => Number(counts[column]);
  const fromK = count("from_k");
  const beforeInDay = fromK < count("cap") ? count("day_total") - fromK : (await prepared.dayBeforeK.get(range))!.count;
  const joinedBefore = count("waiting_days_before") + beforeInDay - count("left_before_k");
  const movedByCreation = count("moved_created_days_before") + count("moved_created_before_k");
  const movedByLine = count("moved_line_days_before") + count("moved_line_before_k");
  return { joinedBefore, standingBefore: joinedBefore - movedByCreation + movedByLine };
}

/** How many waiting signups of the waitlist stand before the place key `key` (itself not counted). */
export async function waitingBefore(waitlistId: string, key: LineKey, db: AppDatabase = getDb()): Promise<number> {
  return (await placeCounts(waitlistId, key, db)).standingBefore;
}

/** The signup's place in line, from 1; null when it is not waiting (or not on this waitlist). */
export async function signupPosition(waitlistId: string, signupId: number, db: AppDatabase = getDb()): Promise<number | null> {
  const signup = await lineSignup(signupId, db);
  const id = waitlistId.toLowerCase();
  if (!signup || signup.waitlistId !== id || signup.status !== "waiting") return null;
  return 1 + await waitingBefore(id, signup.key, db);
}

/** Where the signup would stand by the order of joining alone (no referral moving anyone), from 1; null when it is not waiting. */
export async function placeByJoining(waitlistId: string, signupId: number, db: AppDatabase = getDb()): Promise<number | null> {
  const signup = await lineSignup(signupId, db);
  const id = waitlistId.toLowerCase();
  if (!signup || signup.waitlistId !== id || signup.status !== "waiting") return null;
  return 1 + (await placeCounts(id, { at: signup.createdAt, pos: signupId, id: signupId }, db)).joinedBefore;
}

/** signupPosition of each signup (a page of the dashboard's list), in a few statements for all: by id, null for one not waiting here. */
export async function signupPositions(waitlistId: string, signupIds: readonly number[], db: AppDatabase = getDb()): Promise<Map<number, number | null>> {
  const id = waitlistId.toLowerCase();
  const found = await lineSignups(signupIds, db);
  const waiting = signupIds.flatMap((signupId) => {
    const signup = found.get(signupId);
    return signup && signup.waitlistId === id && signup.status === "waiting" ? [signup] : [];
  });
  const counts = await Promise.all(waiting.map((signup) => placeCounts(id, signup.key, db)));
  const places = new Map<number, number | null>(signupIds.map((signupId) => [signupId, null]));
  waiting.forEach((signup, index) => places.set(signup.key.id, 1 + counts[index]!.standingBefore));
  return places;
}

/**
 * The places of signups that just joined the waitlist together at `at` (`ids` ascending: in the order
 * they joined; all waiting, none moved): the first one's counted, and the others follow it one by
 * one when no other signup stands between the first and the last (none else made at `at` among their
 * ids, none moved to `at`); else each counted.
 */
export async function placesOfNewSignups(waitlistId: string, ids: readonly number[], at: number, db: AppDatabase): Promise<(number | null)[]> {
  if (ids.length === 0) return [];
  const firstPlace = waitingBefore(waitlistId, { at, pos: ids[0]!, id: ids[0]! }, db).then((before) => 1 + before);
  if (ids.length === 1) return [await firstPlace];
  const standingAmongNew = preparedSql<{ count: number }>(
    db,
    "joining.position.standingAmongNew",
    () => sql`SELECT (SELECT count(*) FROM signups WHERE waitlist_id = ${placeholder("waitlistId")} AND created_at = ${placeholder("at")} AND id BETWEEN ${placeholder("first")} AND ${placeholder("last")})
       + (SELECT count(*) FROM signups WHERE waitlist_id = ${placeholder("waitlistId")} AND line_at = ${placeholder("at")} AND status = 'waiting') AS count`,
  ).get({ waitlistId, at, first: ids[0], last: ids.at(-1) });
  const [first, standing] = await Promise.all([firstPlace, standingAmongNew]);
  if (Number(standing!.count) === ids.length) return ids.map((_, index) => first + index);
  const places: (number | null)[] = [];
  for (const id of ids) places.push(await signupPosition(waitlistId, id, db));
  return places;
}
