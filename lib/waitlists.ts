import { randomUUID } from "node:crypto";
import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { waitlists, type Waitlist } from "@/db/schema";
import { AppError } from "./errors";
import type { Position } from "./cursor";

export const httpUrlSchema = z
  .url({ protocol: /^https?$/, hostname: /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/i })
  .max(2048)
  .describe("an absolute http or https URL");

export const newWaitlistSchema = z.object({
  name: z.string().trim().min(1, "name must not be empty").max(200),
  website: httpUrlSchema,
});
export type NewWaitlist = z.input<typeof newWaitlistSchema>;

/** The API's view of a waitlist: exactly the fields of the specification. */
export function toWaitlistResponse(row: Waitlist) {
  return { id: row.id, name: row.name, website: row.website };
}
export type WaitlistResponse = ReturnType<typeof toWaitlistResponse>;

export function createWaitlist(input: NewWaitlist, db: AppDatabase = getDb()): Waitlist {
  const { name, website } = newWaitlistSchema.parse(input);
  const row: Waitlist = { id: randomUUID(), name, website, createdAt: new Date() };
  db.insert(waitlists).values(row).run();
  return row;
}

export function getWaitlist(id: string, db: AppDatabase = getDb()): Waitlist | undefined {
  return db.select().from(waitlists).where(eq(waitlists.id, id.toLowerCase())).get();
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
