import "server-only";
import { createHmac } from "node:crypto";
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { getDb, type AppDatabase } from "@/db/client";
import { hitLimit } from "../limits/counter";
import { writeWithoutBlocking } from "../write-without-blocking";
import { signingKey } from "./signing-key";

// The join page's proof of work (ALTCHA, self-hosted): /join/{id}/challenge hands out a challenge
// signed with the database's challenge key, the widget solves it in the browser, and the join's POST
// carries the solution, checked here. The counter is known to the server (ALTCHA's deterministic
// mode), so checking costs one key derivation while solving costs a few thousand. Each challenge names
// its waitlist in its signed data and is accepted for that waitlist only; a solution is accepted once:
// its nonce is kept in the database (table rate_limits, as a counter of one) until the challenge expires, so
// a replay is refused by every worker and after a restart.

const ALGORITHM = "PBKDF2/SHA-256";
/** PBKDF2 iterations per attempt and the range of attempts: about a second of a phone's time. */
const COST = 250;
const COUNTER_RANGE = [1_000, 4_000] as const;
/** How long a challenge may be solved and submitted. */
export const CHALLENGE_LIFETIME_MS = 10 * 60 * 1000;

async function secrets(db: AppDatabase) {
  const key = await signingKey("challenge_signing_key", db);
  return { hmacSignatureSecret: key.toString("hex"), hmacKeySignatureSecret: createHmac("sha256", key).update("derived-keys").digest("hex") };
}

/** A fresh challenge for a join to `waitlistId`, as the widget fetches it. */
export async function newChallenge(waitlistId: string, now = Date.now(), db: AppDatabase = getDb()): Promise<Challenge> {
  return createChallenge({
    data: { waitlist: waitlistId.toLowerCase() },
    algorithm: ALGORITHM,
    cost: COST,
    counter: randomInt(...COUNTER_RANGE),
    deriveKey,
    expiresAt: new Date(now + CHALLENGE_LIFETIME_MS),
    ...await secrets(db),
  });
}

/** Marks a solved challenge's nonce used until the challenge expires: true the first time only. */
async function firstUse(nonce: string, expiresAtMs: number, now: number, db: AppDatabase): Promise<boolean> {
  return await hitLimit(`challenge ${nonce}`, { limit: 1, windowMs: Math.max(1, expiresAtMs - now) }, now, db) === undefined;
}

/**
 * Whether the widget's payload (base64 JSON of the challenge and its solution, the form field
 * `altcha`) solves a challenge this database signed for `waitlistId`, in time, for the first time.
 */
export async function solvesChallenge(payload: string | undefined, waitlistId: string, now = Date.now(), db: AppDatabase = getDb()): Promise<boolean> {
  if (!payload || payload.length > 4_000) return false;
  let parsed: { challenge?: Challenge; solution?: Solution };
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
  } catch {
    return false;
  }
  const parameters = parsed?.challenge?.parameters;
  if (!parameters || !parsed.solution || parameters.data?.waitlist !== waitlistId.toLowerCase() || typeof parameters.expiresAt !== "number") return false;
  let verified: boolean;
  try {
    verified = (await verifySolution({ challenge: parsed.challenge!, solution: parsed.solution, deriveKey, ...await secrets(db) })).verified;
  } catch {
    // A payload that does not have the shape of one (verifySolution throws on bad parameters).
    return false;
  }
  // Signed, so the nonce and the expiry are the server's own (expiresAt in seconds).
  const expiresAtMs = parameters.expiresAt * 1000;
  return verified && expiresAtMs > now && (await writeWithoutBlocking(async () => await firstUse(parameters.nonce, expiresAtMs, now, db), db));
}
