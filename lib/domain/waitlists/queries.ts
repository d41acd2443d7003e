import "server-only";
import { randomUUID } from "node:crypto";
import { asc, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { signupCounts, signups, waitlists, type Waitlist } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { normalizeWebsite } from "@/lib/core/website";
import { afterPosition, type Position } from "@/lib/store/keyset";
import { dialectOf } from "@/lib/store/dialect";
import { containsPattern, containsText } from "@/lib/store/contains";
import { preparedOnce } from "@/lib/store/statements";
import type { SortDirection, WaitlistSummarySort } from "../sorting";

/** The longest waitlist name, and the longest website URL (the forms' maxLength too). */
export const MAX_WAITLIST_NAME = 200;
export const MAX_WEBSITE_LENGTH = 2048;

export const httpUrlSchema = z
  .url({ protocol: /^https?$/, hostname: /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/i })
  .max(MAX_WEBSITE_LENGTH)
  .describe("an absolute http or https URL");

export const newWaitlistSchema = z.object({
  name: z.string().trim().min(1, "name must not be empty").max(MAX_WAITLIST_NAME),
  // Stored in one serialization (lib/core/website.ts), so that the API returns a valid URI.
  website: httpUrlSchema
    .transform(normalizeWebsite)
    .pipe(z.string().max(MAX_WEBSITE_LENGTH))
    .describe(httpUrlSchema.description!),
});
export type NewWaitlist = z.input<typeof newWaitlistSchema>;

export async function createWaitlist(input: NewWaitlist, db: AppDatabase = getDb()): Promise<Waitlist> {
  const { name, website } = newWaitlistSchema.parse(input);
  const row: Waitlist = { id: randomUUID(), name, website, createdAt: new Date() };
  const insert = preparedOnce(db, "waitlists.insert", () =>
    db
      .insert(waitlists)
      .values({ id: sql.placeholder("id"), name: sql.placeholder("name"), website: sql.placeholder("website"), createdAt: sql.placeholder("createdAt") })
      .prepare(),
  );
  await insert.run(row);
  return row;
}

export async function getWaitlist(id: string, db: AppDatabase = getDb()): Promise<Waitlist | undefined> {
  const byId = preparedOnce(db, "waitlists.byId", () => db.select().from(waitlists).where(eq(waitlists.id, sql.placeholder("id"))).prepare());
  return await byId.get({ id: id.toLowerCase() });
}

export async function getWaitlistOrThrow(id: string, db: AppDatabase = getDb()): Promise<Waitlist> {
  const row = await getWaitlist(id, db);
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

function waitlistPageStatement(db: AppDatabase, paged: boolean, continued: boolean) {
  return preparedOnce(db, `waitlists.page:${paged ? "limit" : "all"}:${continued ? "after" : "first"}`, () => {
    const query = db
      .select({ ...getTableColumns(waitlists), rowid })
      .from(waitlists)
      .where(continued ? afterPosition(dialectOf(db), waitlists.createdAt, rowid, { createdAt: sql.placeholder("afterCreatedAt"), id: sql.placeholder("afterId") }) : undefined)
      .orderBy(asc(waitlists.createdAt), asc(rowid))
      .$dynamic();
    return (paged ? query.limit(sql.placeholder("take")) : query).prepare();
  });
}

/** Waitlists in creation order (ties by insertion order), optionally one keyset page of them. */
export async function listWaitlists({ limit, after }: WaitlistPageInput = {}, db: AppDatabase = getDb()) {
  const rows = await waitlistPageStatement(db, limit !== undefined, after !== undefined).all({
    afterCreatedAt: after?.createdAt ?? null,
    afterId: after?.id ?? null,
    take: limit === undefined ? null : limit + 1,
  });
  const page = limit === undefined ? rows : rows.slice(0, limit);
  const last = page.at(-1);
  const next: Position | null = limit !== undefined && rows.length > limit && last ? { createdAt: last.createdAt.getTime(), id: last.rowid } : null;
  const items: Waitlist[] = page.map(({ rowid: _, ...waitlist }) => waitlist);
  return { items, next };
}

/** The number of signups of every waitlist that has any, from one GROUP BY over signup_counts. */
export async function signupTotals(db: AppDatabase = getDb()): Promise<Map<string, number>> {
  const totals = preparedOnce(db, "waitlists.signupTotals", () =>
    db
      .select({ waitlistId: signupCounts.waitlistId, total: sql<number>`sum(${signupCounts.count})` })
      .from(signupCounts)
      .groupBy(signupCounts.waitlistId)
      .prepare(),
  );
  return new Map((await totals.all()).map((row) => [row.waitlistId, row.total]));
}

export interface WaitlistSummaryInput {
  /** Case-insensitive substring of the name. */
  search?: string;
  sort?: WaitlistSummarySort;
  direction?: SortDirection;
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

// Totals from signup_counts (written by the bulk writer, kept exact by triggers on update and delete)
// and the newest date from the (waitlist_id, created_at) index: a few hundred rows per waitlist are
// read, not every signup.
function summaryQuery(db: AppDatabase, search: boolean) {
  const totals = db
    .select({
      waitlistId: signupCounts.waitlistId,
      total: sql<number>`sum(${signupCounts.count})`.as("total"),
      verified: sql<number>`sum(${signupCounts.verified} * ${signupCounts.count})`.as("verified"),
      referral: sql<number>`sum(${signupCounts.referral} * ${signupCounts.count})`.as("referral"),
    })
    .from(signupCounts)
    .groupBy(signupCounts.waitlistId)
    .as("totals");
  return db
    .select({
      id: waitlists.id,
      name: waitlists.name,
      website: waitlists.website,
      total: sql<number>`coalesce(${totals.total}, 0)`.as("total"),
      verified: sql<number>`coalesce(${totals.verified}, 0)`.as("verified"),
      referral: sql<number>`coalesce(${totals.referral}, 0)`.as("referral"),
      newest: sql<number | null>`(SELECT max(${signups.createdAt}) FROM ${signups} WHERE ${signups.waitlistId} = ${waitlists.id})`.as("newest"),
    })
    .from(waitlists)
    .leftJoin(totals, eq(totals.waitlistId, waitlists.id))
    .where(search ? containsText(dialectOf(db), waitlists.name, "search") : undefined)
    .as("summary");
}

type Summary = ReturnType<typeof summaryQuery>;

// Whitelisted sort expressions; lists without signups have no percentage or date and sort last.
const SUMMARY_ORDER: Record<WaitlistSummarySort, (summary: Summary) => SQL> = {
  name: (summary) => sql`lower(${summary.name})`,
  total: (summary) => sql`${summary.total}`,
  verified: (summary) => sql`CAST(${summary.verified} AS REAL) / nullif(${summary.total}, 0)`,
  referral: (summary) => sql`CAST(${summary.referral} AS REAL) / nullif(${summary.total}, 0)`,
  newest: (summary) => sql`${summary.newest}`,
};

function summaryStatement(db: AppDatabase, search: boolean, sort: WaitlistSummarySort, direction: SortDirection) {
  return preparedOnce(db, `waitlists.summaries:${search ? "q" : "-"}:${sort}:${direction}`, () => {
    const summary = summaryQuery(db, search);
    const order = SUMMARY_ORDER[sort](summary);
    const by = direction === "desc" ? desc : asc;
    return db
      .select()
      .from(summary)
      .orderBy(sql`(${order}) IS NULL`, by(order), by(sql`lower(${summary.name})`), asc(summary.id))
      .prepare();
  });
}

/** Every waitlist with its signup totals, from one GROUP BY (not one query per list). */
export async function listWaitlistSummaries({ search, sort = "name", direction = "asc" }: WaitlistSummaryInput = {}, db: AppDatabase = getDb()): Promise<WaitlistSummary[]> {
  const rows = await summaryStatement(db, Boolean(search), sort, direction).all({ search: search ? containsPattern(search) : null });
  return rows.map(({ newest, ...row }) => ({ ...row, newestSignupAt: newest === null ? null : new Date(newest) }));
}
