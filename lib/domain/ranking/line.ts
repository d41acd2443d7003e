import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import type { Dialect } from "@/lib/store/dialect";
import { preparedOnce, preparedSql, valuePlaceholder } from "@/lib/store/statements";

// The line of a waitlist: its waiting signups in order of their place key (at, pos, id). A signup
// no referral moved stands at (created_at, id, id); one that referrals moved, at (line_at, line_pos,
// id) (migration 0018). The line is read as two index walks that SQLite merges (MERGE (UNION ALL)):
// the signups in creation order (signups_waitlist_order_idx), less the moved ones, and the moved ones
// in place order (signups_moved_line_idx, which holds only those). Neither walk sorts.

/** A place in line: compared as (at, pos, id). */
export interface LineKey {
  at: number;
  pos: number;
  id: number;
}

/**
 * An unmoved signup's (created_at, id) is compared with a key's (at, pos), and a moved signup's pos is
 * a fraction: it is compared as the integer that orders an id the same (id < 3.5 as id < 4, id > 3.5
 * as id > 3), since PostgreSQL takes that value as the id's bigint and refuses a fraction.
 */
export const idBoundOf = (pos: number, side: "ahead" | "after") => (side === "ahead" ? Math.ceil(pos) : Math.floor(pos));

export interface LineSignup {
  waitlistId: string;
  status: string;
  key: LineKey;
  createdAt: number;
  moved: boolean;
}

/** A signup's columns that make its LineSignup. */
interface LineRow {
  waitlistId: string;
  status: string;
  createdAt: number;
  id: number;
  lineAt: number | null;
  linePos: number | null;
}

const placeholder = sql.placeholder;
const UNMOVED = sql`SELECT created_at AS at, id AS pos, id FROM signups WHERE waitlist_id = ${placeholder("waitlistId")} AND status = 'waiting' AND line_at IS NULL`;
const moved = (d: Dialect) => sql`SELECT line_at, line_pos, id FROM signups ${d.indexedBy("signups_moved_line_idx")} WHERE waitlist_id = ${placeholder("waitlistId")} AND line_at IS NOT NULL AND status = 'waiting'`;

function statements(db: AppDatabase) {
  return preparedOnce(db, "ranking.line", () => ({
    signup: db
      .select({ waitlistId: signups.waitlistId, status: signups.status, createdAt: sql<number>`${signups.createdAt}`, id: signups.id, lineAt: signups.lineAt, linePos: signups.linePos })
      .from(signups)
      .where(eq(signups.id, valuePlaceholder("id")))
      .prepare(),
    // In SQL: the signup statement's columns for every id in a JSON array.
    signups: preparedSql<LineRow>(
      db,
      "ranking.line.signups",
      (d) => sql`SELECT waitlist_id AS "waitlistId", status, created_at AS "createdAt", id, line_at AS "lineAt", line_pos AS "linePos" FROM signups WHERE id ${d.inJson(placeholder("ids"), "integer")}`,
    ),
    // In SQL: a compound SELECT that SQLite merges from two index walks, and INDEXED BY, neither of which Drizzle's builder writes.
    // The `take` waiting signups just ahead of a place, nearest first.
    ahead: preparedSql<LineKey>(
      db,
      "ranking.line.ahead",
      (d) => sql`${UNMOVED} AND (created_at, id) < (${placeholder("at")}, ${d.seekable(placeholder("idBound"))})
       UNION ALL ${moved(d)} AND (line_at, line_pos, id) < (${placeholder("at")}, ${placeholder("pos")}, ${d.seekable(placeholder("id"))})
       ORDER BY 1 DESC, 2 DESC, 3 DESC LIMIT ${placeholder("take")}`,
    ),
    // The first `take` waiting signups of the line.
    first: preparedSql<LineKey>(db, "ranking.line.first", (d) => sql`${UNMOVED} UNION ALL ${moved(d)} ORDER BY 1, 2, 3 LIMIT ${placeholder("take")}`),
    // The `take` waiting signups after a place, in line order.
    after: preparedSql<LineKey>(
      db,
      "ranking.line.after",
      (d) => sql`${UNMOVED} AND (created_at, id) > (${placeholder("at")}, ${d.seekable(placeholder("idBound"))})
       UNION ALL ${moved(d)} AND (line_at, line_pos, id) > (${placeholder("at")}, ${placeholder("pos")}, ${d.seekable(placeholder("id"))})
       ORDER BY 1, 2, 3 LIMIT ${placeholder("take")}`,
    ),
    moveTo: db
      .update(signups)
      .set({ lineAt: sql`${valuePlaceholder("at")}`, linePos: sql`${valuePlaceholder("pos")}` })
      .where(eq(signups.id, valuePlaceholder("id")))
      .prepare(),
  }));
}

function toLineSignup(row: LineRow): LineSignup {
  const moved = row.lineAt !== null && row.linePos !== null;
  return { waitlistId: row.waitlistId, status: row.status, createdAt: row.createdAt, moved, key: { at: moved ? row.lineAt! : row.createdAt, pos: moved ? row.linePos! : row.id, id: row.id } };
}

/** A signup's waitlist, status and place key; undefined when there is no such signup. */
export async function lineSignup(signupId: number, db: AppDatabase = getDb()): Promise<LineSignup | undefined> {
  const row = await statements(db).signup.get({ id: signupId });
  return row && toLineSignup(row);
}

/** lineSignup of each id, in one statement: by id (an id with no signup is missing). */
export async function lineSignups(signupIds: readonly number[], db: AppDatabase = getDb()): Promise<Map<number, LineSignup>> {
  if (signupIds.length === 0) return new Map();
  const rows = await statements(db).signups.all({ ids: JSON.stringify(signupIds) });
  return new Map(rows.map((row) => [Number(row.id), toLineSignup({ ...row, id: Number(row.id) })]));
}

/** The `take` waiting signups just ahead of `key` in its waitlist's line, nearest first. */
export async function waitingAhead(waitlistId: string, key: LineKey, take: number, db: AppDatabase = getDb()): Promise<LineKey[]> {
  return await statements(db).ahead.all({ waitlistId, ...key, idBound: idBoundOf(key.pos, "ahead"), take });
}

/** Up to `take` waiting signups in line order, from the front or after `after`. */
export async function lineSlice(waitlistId: string, after: LineKey | undefined, take: number, db: AppDatabase = getDb()): Promise<LineKey[]> {
  const prepared = statements(db);
  return after ? await prepared.after.all({ waitlistId, ...after, idBound: idBoundOf(after.pos, "after"), take }) : await prepared.first.all({ waitlistId, take });
}

/** Stands a signup in line at `key` (its own id stays the last tie-breaker). */
export async function moveInLine(signupId: number, key: { at: number; pos: number }, db: AppDatabase = getDb()): Promise<void> {
  await statements(db).moveTo.run({ id: signupId, at: key.at, pos: key.pos });
}

/**
 * The place key just ahead of `target`, after `before` (the signup ahead of the target, if any):
 * the midpoint between the two when they share `at`, else just under the target's pos. No waiting
 * signup stands between two neighbours, so the key is free; when the two are too close for a
 * double in between, the key is the target's own and the ids order them.
 */
export function keyJustAhead(target: LineKey, before: LineKey | undefined): { at: number; pos: number } {
  if (!before || before.at !== target.at) return { at: target.at, pos: target.pos - 0.5 };
  const middle = (before.pos + target.pos) / 2;
  return middle > before.pos && middle < target.pos ? { at: target.at, pos: middle } : { at: target.at, pos: target.pos };
}
