import { randomUUID } from "node:crypto";
import { and, asc, eq, gt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { waitlists, type Waitlist } from "@/db/schema";
import { AppError } from "./errors";
import type { Position } from "./cursor";
import { preparedOnce } from "./prepared";

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

/** Waitlists in creation order (ties by id), optionally one keyset page of them. */
export function listWaitlists({ limit, after }: WaitlistPageInput = {}, db: AppDatabase = getDb()) {
  const afterClause = after
    ? or(
        gt(waitlists.createdAt, new Date(after.createdAt)),
        and(eq(waitlists.createdAt, new Date(after.createdAt)), gt(waitlists.id, String(after.id))),
      )
    : undefined;
  const query = db.select().from(waitlists).where(afterClause).orderBy(asc(waitlists.createdAt), asc(waitlists.id));
  if (limit === undefined) return { items: query.all(), next: null };
  const rows = query.limit(limit + 1).all();
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const next: Position | null = rows.length > limit && last ? { createdAt: last.createdAt.getTime(), id: last.id } : null;
  return { items, next };
}
