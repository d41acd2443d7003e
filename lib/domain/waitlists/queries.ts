import { randomUUID } from "node:crypto";
import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { waitlists, type Waitlist } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import type { Position } from "@/lib/sqlite/keyset";
import { containsPattern } from "@/lib/sqlite/like-pattern";
import { preparedOnce } from "@/lib/sqlite/statements";
import type { WaitlistSummarySort } from "../sorting";

export const httpUrlSchema = z
  .url({ protocol: /^https?$/, hostname: /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/i })
  .max(2048)
  .describe("an absolute http or https URL");

export const newWaitlistSchema = z.object({
  name: z.string().trim().min(1, "name must not be empty").max(200),
  website: httpUrlSchema,
});
export type NewWaitlist = z.input<typeof newWaitlistSchema>;

export function createWaitlist(input: NewWaitlist, db: AppDatabase = getDb()): Waitlist {
  const { name, website } = newWaitlistSchema.parse(input);
  const row: Waitlist = { id: randomUUID(), name, website, createdAt: new Date() };
  db.insert(waitlists).values(row).run();
  return row;
}

/** The query of getWaitlist, with the id as a placeholder (the benchmark's baseline runs the same SQL). */
export function waitlistByIdQuery(db: AppDatabase = getDb()) {
  return db.select().from(waitlists).where(eq(waitlists.id, sql.placeholder("id")));
}

export function getWaitlist(id: string, db: AppDatabase = getDb()): Waitlist | undefined {
  return preparedOnce(db, "waitlistById", () => waitlistByIdQuery(db).prepare()).get({ id: id.toLowerCase() });
}

export function getWaitlistOrThrow(id: string, db: AppDatabase = getDb()): Waitlist {
  const row = getWaitlist(id, db);
  if (!row) throw new AppError("not_found", `No waitlist has the id ${id}.`);
  return row;
}

export interface WaitlistPageInput {
  /** Page size; all waitlists when omitted. */
  limit?: number;
  after?: Position;
}

// Creation ties are broken by SQLite's rowid, which follows insertion order (a UUID would not).
const rowid = sql<number>`${waitlists}.rowid`;

/** Waitlists in creation order (ties by insertion order), optionally one keyset page of them. */
export function listWaitlists({ limit, after }: WaitlistPageInput = {}, db: AppDatabase = getDb()) {
  const afterClause = after ? sql`(${waitlists.createdAt}, ${rowid}) > (${after.createdAt}, ${after.id})` : undefined;
  const query = db
    .select({ ...getTableColumns(waitlists), rowid })
    .from(waitlists)
    .where(afterClause)
    .orderBy(asc(waitlists.createdAt), asc(rowid));
  const rows = limit === undefined ? query.all() : query.limit(limit + 1).all();
  const page = limit === undefined ? rows : rows.slice(0, limit);
  const last = page.at(-1);
  const next: Position | null = limit !== undefined && rows.length > limit && last ? { createdAt: last.createdAt.getTime(), id: last.rowid } : null;
  const items: Waitlist[] = page.map(({ rowid: _, ...waitlist }) => waitlist);
  return { items, next };
}

export interface WaitlistSummaryInput {
  /** Case-insensitive substring of the name. */
  search?: string;
  sort?: WaitlistSummarySort;
  direction?: "asc" | "desc";
}

export interface WaitlistSummary {
  id: string;
  name: string;
  website: string;
  total: number;
  verified: number;
  referral: number;
  /** created_at of the newest signup, null when there is none. */
  newestSignupAt: Date | null;
}

// Totals from signup_counts (kept by triggers) and the newest date from the (waitlist_id, created_at)
// index: a few hundred rows per waitlist are read, not every signup.
const SUMMARY_SQL = `
SELECT w.id, w.name, w.website, coalesce(s.total, 0) AS total, coalesce(s.verified, 0) AS verified,
       coalesce(s.referral, 0) AS referral,
       (SELECT max(created_at) FROM signups WHERE signups.waitlist_id = w.id) AS newest
FROM waitlists w
LEFT JOIN (
  SELECT waitlist_id, sum(count) AS total, sum(verified * count) AS verified, sum(referral * count) AS referral
  FROM signup_counts GROUP BY waitlist_id
) s ON s.waitlist_id = w.id`;

// Whitelisted sort expressions; lists without signups have no percentage or date and sort last.
const SUMMARY_ORDER: Record<WaitlistSummarySort, string> = {
  name: "lower(name)",
  total: "total",
  verified: "CAST(verified AS REAL) / nullif(total, 0)",
  referral: "CAST(referral AS REAL) / nullif(total, 0)",
  newest: "newest",
};

/** Every waitlist with its signup totals, from one GROUP BY (not one query per list). */
export function listWaitlistSummaries({ search, sort = "name", direction = "asc" }: WaitlistSummaryInput = {}, db: AppDatabase = getDb()): WaitlistSummary[] {
  const dir = direction === "desc" ? "DESC" : "ASC";
  const order = SUMMARY_ORDER[sort];
  const where = search ? " WHERE w.name LIKE @search ESCAPE '\\'" : "";
  const sqlText = `SELECT * FROM (${SUMMARY_SQL}${where}) ORDER BY (${order}) IS NULL, ${order} ${dir}, lower(name) ${dir}, id`;
  const rows = db.$client.prepare(sqlText).all(search ? { search: containsPattern(search) } : {}) as {
    id: string;
    name: string;
    website: string;
    total: number;
    verified: number;
    referral: number;
    newest: number | null;
  }[];
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    website: row.website,
    total: row.total,
    verified: row.verified,
    referral: row.referral,
    newestSignupAt: row.newest === null ? null : new Date(row.newest),
  }));
}
