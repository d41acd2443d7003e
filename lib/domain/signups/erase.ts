import "server-only";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { auditLog, signups, waitlists } from "@/db/schema";
import { checkpointsLeftToLitestream } from "@/lib/core/continuous-backup";
import { AppError } from "@/lib/core/errors";
import { checkpointAfterDeleting, completedWithin } from "@/lib/sqlite/checkpoint";
import { writeTransaction } from "@/lib/store/transaction";
import { auditHash, recordAudit, type AuditActor } from "../audit/log";
import { forgetDeliveriesOf } from "../deliveries/queries";
import { appendEvent, redactSignupEvents } from "../events";
import { forgetAnswersNaming } from "../idempotency";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { MAX_EMAIL_LENGTH } from "./email-address";
import type { FoundSignup } from "./find";

// Erasure on request (the right to erasure): the signups go, and with them, through the delete
// triggers on `signups`, everything derived from them (signup_counts, signup_inputs and their counts,
// the search index). secure_delete (db/client.ts) zeroes the freed space, and a complete checkpoint
// afterwards takes the old page versions off the disk (lib/sqlite/checkpoint.ts). The audit log keeps
// a keyed hash of the address, never the address; the event log (events.ts) its events, their bodies
// rewritten to the signup's id alone, and an erasure event without it; and
// the stored first answers to idempotent /v1 requests that named the address go, as do the person's
// deliveries (webhook bodies and rendered emails, lib/domain/deliveries).

export const eraseAddressSchema = z.object({
  email: z.string().trim().min(1).max(MAX_EMAIL_LENGTH).describe("the whole email address (in any case)"),
  waitlist: z.uuid().optional().describe("a waitlist id"),
});
export type EraseAddressInput = z.input<typeof eraseAddressSchema>;

export interface Erasure {
  erased: number;
  waitlists: number;
}

/** The signups an erasure of `email` would take (case-insensitive exact match), by waitlist name. */
export async function signupsWithAddress(email: string, waitlistId?: string, db: AppDatabase = getDb()): Promise<FoundSignup[]> {
  return await db
    .select({ waitlistId: waitlists.id, waitlistName: waitlists.name, signupId: signups.id, email: signups.email, createdAt: signups.createdAt })
    .from(waitlists)
    .innerJoin(signups, and(eq(signups.waitlistId, waitlists.id), sql`lower(${signups.email}) = lower(${email.trim()})`))
    .where(waitlistId === undefined ? undefined : eq(waitlists.id, waitlistId.toLowerCase()))
    .orderBy(asc(waitlists.name), asc(waitlists.id))
    .all();
}

async function eraseFound(actor: AuditActor, address: string, found: FoundSignup[], db: AppDatabase): Promise<Erasure> {
  if (found.length > 0) await db.delete(signups).where(inArray(signups.id, found.map((signup) => signup.signupId))).run();
  // Their webhook bodies and invitation emails, sent or waiting, held the address.
  await forgetDeliveriesOf(found.map((signup) => signup.signupId), db);
  // Their events' bodies (the snapshots the feed lists and webhooks carry) held it too; the erasure's own holds none.
  await redactSignupEvents(found.map((signup) => signup.signupId), db);
  for (const signup of found) await appendEvent({ type: "signup.erased", waitlistId: signup.waitlistId, signupId: signup.signupId, payload: {} }, db);
  await forgetAnswersNaming(address, db);
  const erasure = { erased: found.length, waitlists: new Set(found.map((signup) => signup.waitlistId)).size };
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  await recordAudit(
    { actor, action: "signup.erase", target: await auditHash(address, db), summary: `erased ${plural(erasure.erased, "signup")} from ${plural(erasure.waitlists, "waitlist")}` },
    db,
  );
  return erasure;
}

async function erase(db: AppDatabase, write: () => Promise<Erasure>): Promise<Erasure> {
  const erasure = await writeTransaction(db, write);
  void checkpointAfterDeleting(db);
  return erasure;
}

/** Said after an erasure whose checkpoint did not empty the WAL (see erasedFromDisk): a reader held it up, or Litestream owns the checkpoints. */
export function erasedDataStillOnDisk(): string {
  return checkpointsLeftToLitestream()
    ? "Continuous backup is on, so only Litestream empties the database's write-ahead log: the erased data stays in it until later writes overwrite it or the server stops, and in the backup until Litestream's retention removes it."
    : "A long read (an export, a backup or another process) still holds an older copy of the database, so the erased data stays on the disk until that read ends; it is removed then, automatically.";
}

/** How long the dashboard (a person waiting for a page) and the CLI wait for erased data to leave the disk. */
export const ERASURE_DISK_WAIT_MS = { dashboard: 3_000, cli: 10_000 } as const;

/**
 * After an erasure or a waitlist's deletion in this process: waits up to `waitMs` for the checkpoint
 * that takes the deleted data off the disk. False when a reader (an export, a backup, an operator's
 * sqlite3) still holds an older snapshot by then: the checkpoint goes on in the background, and the
 * server's watchErasures retries it for erasures made by other processes (the CLI).
 */
export function erasedFromDisk(waitMs: number, db: AppDatabase = getDb()): Promise<boolean> {
  return completedWithin(checkpointAfterDeleting(db), waitMs);
}

const ERASING_ACTIONS = ["signup.erase", "waitlist.delete"] as const;

async function latestErasure(db: AppDatabase): Promise<number> {
  const [row] = await db.select({ id: auditLog.id }).from(auditLog).where(inArray(auditLog.action, [...ERASING_ACTIONS])).orderBy(desc(auditLog.id)).limit(1).all();
  return row?.id ?? 0;
}

/**
 * For the server: checkpoints once at start (a process may have stopped before its checkpoint after
 * an erasure completed), then every `everyMs` looks for erasures other processes recorded (their
 * audit rows) and checkpoints after them, so erased data leaves the disk once their readers finish.
 */
export async function watchErasures(db: AppDatabase = getDb(), everyMs = 5_000): Promise<void> {
  let seen = await latestErasure(db);
  void checkpointAfterDeleting(db);
  const look = async () => {
    const latest = await latestErasure(db);
    if (latest <= seen) return;
    seen = latest;
    void checkpointAfterDeleting(db);
  };
  // A read that fails now (the database busy or unreadable for a moment) is tried again at the next turn.
  setInterval(() => void look().catch(() => undefined), everyMs).unref();
}

/**
 * Erases every signup with this address (any case), from one waitlist or from all of them, in one
 * transaction. A request that finds nothing is still recorded (the request was honoured).
 */
export async function eraseAddress(actor: AuditActor, input: EraseAddressInput, db: AppDatabase = getDb()): Promise<Erasure> {
  const { email, waitlist } = eraseAddressSchema.parse(input);
  return await erase(db, async () => {
    if (waitlist !== undefined) await getWaitlistOrThrow(waitlist, db);
    return await eraseFound(actor, email, await signupsWithAddress(email, waitlist, db), db);
  });
}

/** Erases one signup of a waitlist. */
export async function eraseSignup(actor: AuditActor, waitlistId: string, signupId: number, db: AppDatabase = getDb()): Promise<Erasure> {
  return await erase(db, async () => {
    const [signup] = await db
      .select({ waitlistId: waitlists.id, waitlistName: waitlists.name, signupId: signups.id, email: signups.email, createdAt: signups.createdAt })
      .from(signups)
      .innerJoin(waitlists, eq(waitlists.id, signups.waitlistId))
      .where(and(eq(signups.id, signupId), eq(signups.waitlistId, waitlistId.toLowerCase())))
      .all();
    if (!signup) throw new AppError("not_found", `Waitlist ${waitlistId} has no signup ${signupId}.`);
    return eraseFound(actor, signup.email, [signup], db);
  });
}
