import { count, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { events, signups, waitlists, type Waitlist } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { checkpointAfterDeleting } from "@/lib/sqlite/checkpoint";
import { writeTransaction } from "@/lib/store/transaction";
import { recordAudit, type AuditActor } from "../audit/log";
import { createWaitlist, getWaitlistOrThrow } from "./queries";
import { createWaitlistSchema, deleteWaitlistSchema, updateWaitlistSchema, type CreateWaitlistInput, type DeleteWaitlistInput, type UpdateWaitlistInput } from "./schemas";

/** A write that would give a second waitlist a name already in use, without allowDuplicateName. */
export class DuplicateWaitlistNameError extends AppError {
  constructor(
    readonly name: string,
    readonly existing: Waitlist[],
  ) {
    super("invalid_parameter", `a waitlist named "${name}" already exists (${existing.map((waitlist) => waitlist.id).join(", ")})`, "name");
  }
}

/** The waitlists whose name is `name` in any case (names are compared trimmed and case-insensitively). */
export async function waitlistsNamed(name: string, db: AppDatabase = getDb()): Promise<Waitlist[]> {
  return await db
    .select()
    .from(waitlists)
    .where(sql`lower(${waitlists.name}) = lower(${name.trim()})`)
    .orderBy(waitlists.createdAt)
    .all();
}

async function refuseDuplicateName(name: string, allowed: boolean, db: AppDatabase, exceptId?: string): Promise<void> {
  const others = (await waitlistsNamed(name, db)).filter((waitlist) => waitlist.id !== exceptId);
  if (others.length > 0 && !allowed) throw new DuplicateWaitlistNameError(name, others);
}

export async function createWaitlistAs(actor: AuditActor, input: CreateWaitlistInput, db: AppDatabase = getDb()): Promise<Waitlist> {
  const { allowDuplicateName, ...fields } = createWaitlistSchema.parse(input);
  return await writeTransaction(db, async () => {
    await refuseDuplicateName(fields.name, allowDuplicateName, db);
    const waitlist = await createWaitlist(fields, db);
    await recordAudit({ actor, action: "waitlist.create", target: waitlist.id, summary: `created "${waitlist.name}" (${waitlist.website})` }, db);
    return waitlist;
  });
}

export async function updateWaitlistAs(actor: AuditActor, id: string, input: UpdateWaitlistInput, db: AppDatabase = getDb()): Promise<Waitlist> {
  const { allowDuplicateName, ...fields } = updateWaitlistSchema.parse(input);
  return await writeTransaction(db, async () => {
    const before = await getWaitlistOrThrow(id, db);
    const after = { ...before, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
    if (after.name.toLowerCase() !== before.name.toLowerCase()) await refuseDuplicateName(after.name, allowDuplicateName, db, before.id);
    const changes = [
      after.name !== before.name ? `renamed "${before.name}" to "${after.name}"` : undefined,
      after.website !== before.website ? `website ${before.website} → ${after.website}` : undefined,
    ].filter((change) => change !== undefined);
    if (changes.length === 0) return before;
    await db.update(waitlists).set({ name: after.name, website: after.website }).where(eq(waitlists.id, before.id)).run();
    await recordAudit({ actor, action: "waitlist.update", target: before.id, summary: changes.join("; ") }, db);
    return after;
  });
}

export interface DeletedWaitlist {
  id: string;
  name: string;
  /** The signups that went with it. */
  signups: number;
}

/** Deletes a waitlist, its signups (their derived rows go through the delete triggers) and its events. */
export async function deleteWaitlistAs(actor: AuditActor, id: string, input: DeleteWaitlistInput, db: AppDatabase = getDb()): Promise<DeletedWaitlist> {
  const { confirm } = deleteWaitlistSchema.parse(input);
  const deleted = await writeTransaction(db, async () => {
    const waitlist = await getWaitlistOrThrow(id, db);
    if (confirm !== waitlist.name) throw new AppError("invalid_parameter", `the confirmation must be the waitlist's name exactly ("${waitlist.name}")`, "confirm");
    const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(signups).where(eq(signups.waitlistId, waitlist.id)).all();
    await db.delete(waitlists).where(eq(waitlists.id, waitlist.id)).run();
    // Its events' bodies hold its signups' addresses (lib/domain/events.ts); no one reads them once it is gone.
    await db.delete(events).where(eq(events.waitlistId, waitlist.id)).run();
    await recordAudit({ actor, action: "waitlist.delete", target: waitlist.id, summary: `deleted "${waitlist.name}" and its ${total} signups` }, db);
    return { id: waitlist.id, name: waitlist.name, signups: total };
  });
  void checkpointAfterDeleting(db);
  return deleted;
}
