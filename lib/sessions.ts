import { randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys, sessions } from "@/db/schema";
import { writeIfUnlocked, writeWhenUnlocked } from "./sqlite-busy";
import { hashSecret, isKeyActive, looksLikeApiKey, verifyApiKey, VIEW_ROLE, type ApiKeySummary, toApiKeySummary } from "./api-keys";

import { SESSION_LIFETIME_MS } from "./session-cookie";

export { SESSION_COOKIE, SESSION_LIFETIME_MS } from "./session-cookie";

export interface DashboardSession {
  expiresAt: Date;
  key: ApiKeySummary;
}

/** Starts a session for a key; returns the token for the cookie (the table keeps only its SHA-256). */
export function createSession(apiKeyId: string, db: AppDatabase = getDb(), now = new Date()) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  // Expired sessions are dead weight: sign-in is rare enough to sweep them here.
  db.delete(sessions).where(lt(sessions.expiresAt, now)).run();
  db.insert(sessions).values({ tokenHash: hashSecret(token), apiKeyId, createdAt: now, expiresAt }).run();
  return { token, expiresAt };
}

/**
 * The session a token belongs to, or null when it is unknown or expired, or when its key has
 * since been revoked, has expired or lost `waitlist:view`: those end the session on its next request.
 */
export function getSessionFromToken(token: string | null | undefined, db: AppDatabase = getDb(), now = new Date()): DashboardSession | null {
  if (!token || token.length > 128) return null;
  const tokenHash = hashSecret(token);
  const row = db
    .select({ expiresAt: sessions.expiresAt, key: apiKeys })
    .from(sessions)
    .innerJoin(apiKeys, eq(apiKeys.id, sessions.apiKeyId))
    .where(eq(sessions.tokenHash, tokenHash))
    .get();
  if (!row) return null;
  if (row.expiresAt.getTime() <= now.getTime() || !isKeyActive(row.key, now) || !row.key.roles.includes(VIEW_ROLE)) {
    // Clean-up only: the session is refused either way, so never wait for a write lock held elsewhere.
    writeIfUnlocked(db, () => db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run());
    return null;
  }
  return { expiresAt: row.expiresAt, key: toApiKeySummary(row.key) };
}

export function deleteSession(token: string, db: AppDatabase = getDb()): void {
  db.delete(sessions).where(eq(sessions.tokenHash, hashSecret(token))).run();
}

/**
 * createSession and deleteSession for a request: while another process holds the write lock (an
 * import), they wait between turns of the event loop instead of blocking the server inside SQLite.
 */
export function startSession(apiKeyId: string, db: AppDatabase = getDb()) {
  return writeWhenUnlocked(db, () => createSession(apiKeyId, db));
}

export function endSession(token: string, db: AppDatabase = getDb()) {
  return writeWhenUnlocked(db, () => deleteSession(token, db));
}

export type SignInCheck =
  | { ok: true; apiKeyId: string }
  | { ok: false; reason: "invalid" | "revoked" | "expired" | "forbidden" };

/**
 * Checks a key pasted into the sign-in form. The person already holds the key, so a revoked,
 * expired or role-less key gets its own message; anything else is just "not a valid key".
 */
export function checkSignInKey(presented: string, db: AppDatabase = getDb()): SignInCheck {
  const candidate = presented.trim();
  const verdict = verifyApiKey(candidate, VIEW_ROLE, db);
  if (verdict.ok) return { ok: true, apiKeyId: verdict.key.id };
  if (verdict.reason === "forbidden") return { ok: false, reason: "forbidden" };
  if (!looksLikeApiKey(candidate)) return { ok: false, reason: "invalid" };
  const row = db.select().from(apiKeys).where(eq(apiKeys.keyHash, hashSecret(candidate))).get();
  if (!row) return { ok: false, reason: "invalid" };
  return { ok: false, reason: row.revokedAt ? "revoked" : "expired" };
}
