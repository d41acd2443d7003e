import "server-only";
import { createHmac } from "node:crypto";
import { CappedMap, createChallenge, randomInt, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { getDb, type AppDatabase } from "@/db/client";
import { signingKey } from "./signing-key";

// The join page's proof of work (ALTCHA, self-hosted): /join/{id}/challenge hands out a challenge
// signed with the database's challenge key, the widget solves it in the browser, and the join's POST
// carries the solution, checked here. The counter is known to the server (ALTCHA's deterministic
// mode), so checking costs one key derivation while solving costs a few thousand.

const ALGORITHM = "PBKDF2/SHA-256";
/** PBKDF2 iterations per attempt and the range of attempts: about a second of a phone's time. */
const COST = 250;
const COUNTER_RANGE = [1_000, 4_000] as const;
/** How long a challenge may be solved and submitted. */
export const CHALLENGE_LIFETIME_MS = 10 * 60 * 1000;

/** Solutions already used, per process: a replay to the same worker is refused (others still expire with the challenge). */
const used = new CappedMap<string, boolean>({ maxSize: 100_000 });

function secrets(db: AppDatabase) {
  const key = signingKey("challenge_signing_key", db);
  return { hmacSignatureSecret: key.toString("hex"), hmacKeySignatureSecret: createHmac("sha256", key).update("derived-keys").digest("hex") };
}

/** A fresh challenge, as the widget fetches it. */
export function newChallenge(now = Date.now(), db: AppDatabase = getDb()): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    counter: randomInt(...COUNTER_RANGE),
    deriveKey,
    expiresAt: new Date(now + CHALLENGE_LIFETIME_MS),
    ...secrets(db),
  });
}

/**
 * Whether the widget's payload (base64 JSON of the challenge and its solution, the form field
 * `altcha`) solves a challenge this database signed, in time, for the first time in this process.
 */
export async function solvesChallenge(payload: string | undefined, db: AppDatabase = getDb()): Promise<boolean> {
  if (!payload || payload.length > 4_000) return false;
  let parsed: { challenge?: Challenge; solution?: Solution };
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
  } catch {
    return false;
  }
  if (!parsed?.challenge?.parameters || !parsed.solution) return false;
  try {
    const result = await verifySolution({ challenge: parsed.challenge, solution: parsed.solution, deriveKey, ...secrets(db) });
    return result.verified && used.setIfAbsent(parsed.challenge.parameters.nonce, true);
  } catch {
    // A payload that does not have the shape of one (verifySolution throws on bad parameters).
    return false;
  }
}
