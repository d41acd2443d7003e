import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { processSlot } from "@/lib/core/process-slots";
import { writeTransaction } from "@/lib/store/transaction";
import type { AuditActor } from "../audit/log";
import { applyStatusAction } from "../signups/transitions";
import { writeWithoutBlocking } from "../write-without-blocking";
import { toInvitationResponse, type InvitationResponse } from "./response";
import { readInvitation, type InvitationReading } from "./token";

// What the product does with an invite token: look at it, and redeem it. Redeeming completes the
// signup through the status table's `complete` (lib/domain/signups/transitions.ts: the status, the
// `signup.completed` event and the audit row in one transaction); a second redeem finds it redeemed
// and answers the same, changing nothing. The production server redeems on its status writer thread,
// as it runs status actions (lib/server/writers.ts), so that no redeem is written on the serving thread.

/** The refusal of a token that is not valid or redeemed: the same for a look and a redeem. */
function refusalOf(reading: Exclude<InvitationReading, { state: "valid" | "redeemed" }>): AppError {
  switch (reading.state) {
    case "malformed":
      return new AppError("invalid_parameter", "The token is not an invite token: copy it whole from the invite link's `invite` parameter.", "token");
    case "unknown":
      return new AppError("not_found", "No invitation has this token: it was altered, or its signup was erased.");
    case "expired":
      return new AppError("conflict", "This invitation has expired: the waitlist's admin can invite the person again.");
    case "withdrawn":
      return new AppError("conflict", `This invitation was withdrawn or replaced by a newer one: the signup is ${reading.signup.status} now.`);
  }
}

/** The invitation of a valid or redeemed token at `now`; refused otherwise (see refusalOf). */
export async function getInvitationOrThrow(token: string, now = Date.now(), db: AppDatabase = getDb()): Promise<InvitationResponse> {
  const reading = await readInvitation(token, now, db);
  if (reading.state !== "valid" && reading.state !== "redeemed") throw refusalOf(reading);
  return toInvitationResponse(reading.state, reading.signup, reading.claims);
}

/** Completes the signup of a valid token, in one transaction; a redeemed one is answered as it is. */
export async function redeemInvitation(actor: AuditActor, token: string, now = Date.now(), db: AppDatabase = getDb()): Promise<InvitationResponse> {
  return await writeTransaction(db, async () => {
    const reading = await readInvitation(token, now, db);
    if (reading.state === "redeemed") return toInvitationResponse("redeemed", reading.signup, reading.claims);
    if (reading.state !== "valid") throw refusalOf(reading);
    const { signups } = await applyStatusAction(actor, { action: "complete", selection: { waitlistId: reading.claims.waitlistId, ids: [reading.signup.id] }, withSignups: true }, db);
    return toInvitationResponse("redeemed", { ...reading.signup, ...signups[0]! }, reading.claims);
  });
}

/** A redeem as a job of the server's status writer: the key that redeems, the token, and when it was asked. */
export interface RedeemJob {
  actor: { keyId: string; keyName: string };
  token: string;
  now: number;
}

/** The job, on whichever thread runs it. */
export async function runRedeem(job: RedeemJob, db: AppDatabase = getDb()): Promise<InvitationResponse> {
  return await redeemInvitation(job.actor, job.token, job.now, db);
}

/** What redeems need of the server: the database's status writer (lib/server/writers.ts provides it at start-up). */
export interface RedeemWriter {
  redeem(job: RedeemJob): Promise<InvitationResponse>;
}

export const redeemWriter = processSlot<RedeemWriter>("redeem writer");

/** Redeems on the server's status writer when there is one, else here without waiting inside SQLite. */
export async function writeRedeem(job: RedeemJob): Promise<InvitationResponse> {
  const writer = redeemWriter.get();
  return writer ? writer.redeem(job) : await writeWithoutBlocking(async () => await runRedeem(job));
}
