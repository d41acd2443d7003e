import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { appendEvent } from "../events";
import { settleReferralOnConfirm } from "../joining/referrals";
import { preparedOnce } from "@/lib/sqlite/statements";
import { readLinkToken } from "./link-token";

/**
 * What following a confirmation link did: `confirmed` (verified is now true, event
 * `signup.verified`), `already` (it was: nothing changes, so a link is single use in effect),
 * `expired`, `invalid` (forged, mangled, or for another waitlist) or `gone` (the signup was erased).
 */
export type ConfirmOutcome = "confirmed" | "already" | "expired" | "invalid" | "gone";

/** Sets a signup verified from the token of its confirmation link, with its event (and its referral now counting, within its referrer's day), in one transaction. */
export function confirmSignup(waitlistId: string, token: string, now = Date.now(), db: AppDatabase = getDb()): ConfirmOutcome {
  const reading = readLinkToken(token, "confirm", now, db);
  if (!reading.ok) return reading.reason;
  const { claims } = reading;
  if (claims.waitlistId !== waitlistId.toLowerCase()) return "invalid";
  const sqlite = db.$client;
  const verify = preparedOnce(db, "confirm.verify", () => sqlite.prepare<[number, string]>("UPDATE signups SET verified = 1 WHERE id = ? AND waitlist_id = ? AND verified = 0"));
  const exists = preparedOnce(db, "confirm.exists", () => sqlite.prepare<[number, string], { found: number }>("SELECT 1 AS found FROM signups WHERE id = ? AND waitlist_id = ?"));
  return sqlite
    .transaction((): ConfirmOutcome => {
      if (verify.run(claims.signupId, claims.waitlistId).changes === 0) return exists.get(claims.signupId, claims.waitlistId) ? "already" : "gone";
      appendEvent({ type: "signup.verified", waitlistId: claims.waitlistId, signupId: claims.signupId, payload: { verified: true } }, db, now);
      settleReferralOnConfirm(claims.signupId, now, db);
      return "confirmed";
    })
    .immediate();
}
