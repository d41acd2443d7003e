import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { signups, waitlists } from "@/db/schema";
import { AppError } from "@/lib/core/errors";
import { checkpointAfterDeleting } from "@/lib/sqlite/checkpoint";
import { auditHash, recordAudit, type AuditActor } from "../audit/log";
import { getWaitlistOrThrow } from "../waitlists/queries";
import { MAX_FILTER_TEXT } from "./filter";
import type { FoundSignup } from "./find";

// Erasure on request (the right to erasure): the signups go, and with them, through the delete
// triggers on `signups`, everything derived from them (signup_counts, signup_inputs and their counts,
// the search index). secure_delete (db/client.ts) zeroes the freed space, and a checkpoint empties
// the WAL afterwards. The audit log keeps a keyed hash of the address, never the address.

export const eraseAddressSchema = z.object({
  email: z.string().trim().min(1).max(MAX_FILTER_TEXT).describe("the whole email address (in any case)"),
  waitlist: z.uuid().optional().describe("a waitlist id"),
});
export type EraseAddressInput = z.input<typeof eraseAddressSchema>;

export interface Erasure {
  erased: number;
  waitlists: number;
}

/** The signups an erasure of `email` would take (case-insensitive exact match), by waitlist name. */
export function signupsWithAddress(email: string, waitlistId?: string, db: AppDatabase = getDb()): FoundSignup[] {
  return db
    .select({ waitlistId: waitlists.id, waitlistName: waitlists.name, signupId: signups.id, email: signups.email, createdAt: signups.createdAt })
    .from(waitlists)
    .innerJoin(signups, and(eq(signups.waitlistId, waitlists.id), sql`lower(${signups.email}) = lower(${email.trim()})`))
    .where(waitlistId === undefined ? undefined : eq(waitlists.id, waitlistId.toLowerCase()))
    .orderBy(asc(waitlists.name), asc(waitlists.id))
    .all();
}

function eraseFound(actor: AuditActor, address: string, found: FoundSignup[], db: AppDatabase): Erasure {
  if (found.length > 0) db.delete(signups).where(inArray(signups.id, found.map((signup) => signup.signupId))).run();
  const erasure = { erased: found.length, waitlists: new Set(found.map((signup) => signup.waitlistId)).size };
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  recordAudit(
    { actor, action: "signup.erase", target: auditHash(address, db), summary: `erased ${plural(erasure.erased, "signup")} from ${plural(erasure.waitlists, "waitlist")}` },
    db,
  );
  return erasure;
}

function erase(db: AppDatabase, write: () => Erasure): Erasure {
  const erasure = db.$client.transaction(write).immediate();
  checkpointAfterDeleting(db);
  return erasure;
}

/**
 * Erases every signup with this address (any case), from one waitlist or from all of them, in one
 * transaction. A request that finds nothing is still recorded (the request was honoured).
 */
export function eraseAddress(actor: AuditActor, input: EraseAddressInput, db: AppDatabase = getDb()): Erasure {
  const { email, waitlist } = eraseAddressSchema.parse(input);
  return erase(db, () => {
    if (waitlist !== undefined) getWaitlistOrThrow(waitlist, db);
    return eraseFound(actor, email, signupsWithAddress(email, waitlist, db), db);
  });
}

/** Erases one signup of a waitlist. */
export function eraseSignup(actor: AuditActor, waitlistId: string, signupId: number, db: AppDatabase = getDb()): Erasure {
  return erase(db, () => {
    const [signup] = db
      .select({ waitlistId: waitlists.id, waitlistName: waitlists.name, signupId: signups.id, email: signups.email, createdAt: signups.createdAt })
      .from(signups)
      .innerJoin(waitlists, eq(waitlists.id, signups.waitlistId))
      .where(and(eq(signups.id, signupId), eq(signups.waitlistId, waitlistId.toLowerCase())))
      .all();
    if (!signup) throw new AppError("not_found", `Waitlist ${waitlistId} has no signup ${signupId}.`);
    return eraseFound(actor, signup.email, [signup], db);
  });
}
