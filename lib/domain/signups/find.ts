import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { containsPattern, containsText } from "@/lib/store/contains";
import { preparedSql } from "@/lib/store/statements";
import { canUseSearchIndex, searchIndexPattern } from "./scope-sql";

export interface FoundSignup {
  waitlistId: string;
  waitlistName: string;
  signupId: number;
  email: string;
  createdAt: Date;
}

export interface FindInput {
  /** The whole address, case-insensitive. */
  email?: string;
  /** Text the address contains, case-insensitive; at least 3 characters (the search index's trigrams). */
  contains?: string;
  limit: number;
}

interface FoundRow {
  waitlistId: string;
  waitlistName: string;
  signupId: number;
  email: string;
  createdAt: number;
}

const COLUMNS = sql.raw("waitlists.id AS waitlistId, waitlists.name AS waitlistName, signups.id AS signupId, signups.email AS email, signups.created_at AS createdAt");

// One lookup in each waitlist's unique (waitlist, lower(email)) index. In SQL: it shares COLUMNS with the contains statement, which must be SQL.
function exactStatement(db: AppDatabase) {
  return preparedSql<FoundRow>(
    db,
    "find.exact",
    () => sql`SELECT ${COLUMNS} FROM waitlists JOIN signups ON signups.waitlist_id = waitlists.id AND lower(signups.email) = lower(${sql.placeholder("email")})
       ORDER BY waitlists.name, waitlists.id LIMIT ${sql.placeholder("limit")}`,
  );
}

// Candidates from the trigram index, in row order (oldest first), narrowed by the exact test. A join
// driven by the index stops at the limit (`id IN (…)` would first collect every candidate).
function containsStatement(db: AppDatabase) {
  // In SQL: the trigram index is a virtual table outside the Drizzle schema (on SQLite), and CROSS JOIN fixes SQLite's join order.
  return preparedSql<FoundRow>(
    db,
    "find.contains",
    (d) => sql`SELECT ${COLUMNS} FROM ${d.emailSearchFrom(sql.raw("signups"), sql.raw("signups.id"))}
       ${d.crossJoin()} waitlists ON waitlists.id = signups.waitlist_id
       WHERE ${d.emailSearchMatch(sql.raw("signups.email"), sql.placeholder("trigrams"))} AND ${containsText(d, sql.raw("signups.email"), "contains")}
       LIMIT ${sql.placeholder("limit")}`,
  );
}

/**
 * Which waitlists hold an address (exact) or addresses containing a text, across every waitlist:
 * at most `limit` signups, sorted by address and waitlist name.
 */
export async function findSignupsByEmail({ email, contains, limit }: FindInput, db: AppDatabase = getDb()): Promise<FoundSignup[]> {
  let rows: FoundRow[];
  if (email !== undefined) rows = await exactStatement(db).all({ email, limit });
  else if (contains !== undefined && canUseSearchIndex(contains)) rows = await containsStatement(db).all({ trigrams: searchIndexPattern(contains), contains: containsPattern(contains), limit });
  else throw new RangeError("findSignupsByEmail needs an email, or a text of at least 3 characters");
  return rows
    .map((row) => ({ ...row, createdAt: new Date(row.createdAt) }))
    .sort((a, b) => a.email.toLowerCase().localeCompare(b.email.toLowerCase()) || a.waitlistName.localeCompare(b.waitlistName));
}
