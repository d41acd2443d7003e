import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { signups } from "@/db/schema";
import { appendEvent } from "../events";
import { settleReferralOnConfirm } from "../joining/referrals";
import { preparedOnce } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";
import { readLinkToken } from "./link-token";

/**
 * What following a confirmation link did: `confirmed` (verified is now true, event
 * `signup.verified`), `already` (it was: nothing changes, so a link is single use in effect),
 * `expired`, `invalid` (forged, mangled, or for another waitlist) or `gone` (the signup was erased).
 */
export type ConfirmOutcome = "confirmed" | "already" | "expired" | "invalid" | "gone";

const ofSignup = and(eq(signups.id, sql.placeholder("signupId")), eq(signups.waitlistId, sql.placeholder("waitlistId")));

/** Sets a signup verified from the token of its confirmation link, with its event (and its referral now counting, within its referrer's day), in one transaction. */
export async function confirmSignup(waitlistId: string, token: string, now = Date.now(), db: AppDatabase = getDb()): Promise<ConfirmOutcome> {
  const reading = await readLinkToken(token, "confirm", now, db);
  if (!reading.ok) return reading.reason;
  const { claims } = reading;
  if (claims.waitlistId !== waitlistId.toLowerCase()) return "invalid";
  const signup = { signupId: claims.signupId, waitlistId: claims.waitlistId };
  const verify = preparedOnce(db, "confirm.verify", () => db.update(signups).set({ verified: true }).where(and(ofSignup, eq(signups.verified, false))).prepare());
  const exists = preparedOnce(db, "confirm.exists", () => db.select({ found: sql<number>`1` }).from(signups).where(ofSignup).prepare());
  return await writeTransaction<ConfirmOutcome>(db, async () => {
    if ((await verify.run(signup)).changes === 0) return await exists.get(signup) ? "already" : "gone";
    await appendEvent({ type: "signup.verified", waitlistId: claims.waitlistId, signupId: claims.signupId, payload: { verified: true } }, db, now);
    await settleReferralOnConfirm(claims.signupId, now, db);
    return "confirmed";
  });
}
