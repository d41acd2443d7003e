import { randomBytes } from "node:crypto";
import { eq, lt, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys, sessions, type ApiKey } from "@/db/schema";
import { writeWhenUnlocked } from "@/lib/sqlite/busy";
import { preparedOnce } from "@/lib/store/statements";
import { findApiKeyByHash, hashSecret, isKeyActive, looksLikeApiKey, rolesGrant, verifyApiKey, VIEW_ROLE, type ApiKeySummary, toApiKeySummary } from "./keys/queries";
import { SESSION_COOKIE_GRACE_MS, SESSION_LIFETIME_MS } from "./session-lifetime";

export { SESSION_LIFETIME_MS } from "./session-lifetime";

export interface DashboardSession {
  expiresAt: Date;
  key: ApiKeySummary;
}

/** Why a session that exists was refused; the sign-in page says so (`?reason=`). */
export const SESSION_END_REASONS = ["revoked", "key-expired", "role-removed", "session-expired"] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export function isSessionEndReason(value: unknown): value is SessionEndReason {
  return SESSION_END_REASONS.includes(value as SessionEndReason);
}

/** A session found by its token, or why not: `reason` only when the token's session exists but ended. */
export type SessionLookup = { ok: true; session: DashboardSession } | { ok: false; reason?: SessionEndReason };

/** Starts a session for a key; returns the token for the cookie (the table keeps only its SHA-256). */
export async function createSession(apiKeyId: string, db: AppDatabase = getDb(), now = new Date()) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  // Expired sessions are dead weight once their cookies have gone too (sessions of revoked keys go
  // with them): sign-in is rare enough to sweep them here.
  const sweep = preparedOnce(db, "sessions.sweep", () => db.delete(sessions).where(lt(sessions.expiresAt, sql.placeholder("before"))).prepare());
  const insert = preparedOnce(db, "sessions.insert", () =>
    db
      .insert(sessions)
      .values({ tokenHash: sql.placeholder("tokenHash"), apiKeyId: sql.placeholder("apiKeyId"), createdAt: sql.placeholder("createdAt"), expiresAt: sql.placeholder("expiresAt") })
      .prepare(),
  );
  await sweep.run({ before: new Date(now.getTime() - SESSION_COOKIE_GRACE_MS).getTime() });
  await insert.run({ tokenHash: hashSecret(token), apiKeyId, createdAt: now, expiresAt });
  return { token, expiresAt };
}

/**
 * The session a token belongs to. It is refused when unknown or expired, or when its key has since
 * been revoked, has expired or lost `waitlist:view`: those end the session on its next request, and
 * the lookup says which.
 */
export async function lookupSession(token: string | null | undefined, db: AppDatabase = getDb(), now = new Date()): Promise<SessionLookup> {
  if (!token || token.length > 128) return { ok: false };
  const byToken = preparedOnce(db, "sessions.byToken", () =>
    db
      .select({ expiresAt: sessions.expiresAt, key: apiKeys })
      .from(sessions)
      .innerJoin(apiKeys, eq(apiKeys.id, sessions.apiKeyId))
      .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
      .prepare(),
  );
  const row = await byToken.get({ tokenHash: hashSecret(token) });
  if (!row) return { ok: false };
  // A refused session stays until createSession's sweep: one page runs several lookups (metadata,
  // layouts, page), and each must be able to say why.
  const reason = sessionEndReason(row, now);
  if (reason) return { ok: false, reason };
  return { ok: true, session: { expiresAt: row.expiresAt, key: toApiKeySummary(row.key) } };
}

/** The key's fate first: signing in again with a revoked key would not help. */
function sessionEndReason(row: { expiresAt: Date; key: ApiKey }, now: Date): SessionEndReason | undefined {
  if (row.key.revokedAt) return "revoked";
  if (!isKeyActive(row.key, now)) return "key-expired";
  if (!rolesGrant(row.key.roles, VIEW_ROLE)) return "role-removed";
  if (row.expiresAt.getTime() <= now.getTime()) return "session-expired";
  return undefined;
}

/** The session a token belongs to, or null (see lookupSession). */
export async function getSessionFromToken(token: string | null | undefined, db: AppDatabase = getDb(), now = new Date()): Promise<DashboardSession | null> {
  const lookup = await lookupSession(token, db, now);
  return lookup.ok ? lookup.session : null;
}

export async function deleteSession(token: string, db: AppDatabase = getDb()): Promise<void> {
  const remove = preparedOnce(db, "sessions.delete", () => db.delete(sessions).where(eq(sessions.tokenHash, sql.placeholder("tokenHash"))).prepare());
  await remove.run({ tokenHash: hashSecret(token) });
}

/**
 * createSession and deleteSession for a request: while another process holds the write lock (an
 * import), they wait between turns of the event loop instead of blocking the server inside SQLite.
 */
export async function startSession(apiKeyId: string, db: AppDatabase = getDb()) {
  return await writeWhenUnlocked(db, async () => await createSession(apiKeyId, db));
}

export async function endSession(token: string, db: AppDatabase = getDb()) {
  return await writeWhenUnlocked(db, async () => await deleteSession(token, db));
}

export type SignInCheck =
  | { ok: true; apiKeyId: string }
  | { ok: false; reason: "invalid" | "revoked" | "expired" | "forbidden" };

/**
 * Checks a key pasted into the sign-in form. The person already holds the key, so a revoked,
 * expired or role-less key gets its own message; anything else is just "not a valid key".
 */
export async function checkSignInKey(presented: string, db: AppDatabase = getDb()): Promise<SignInCheck> {
  const candidate = presented.trim();
  const verdict = await verifyApiKey(candidate, VIEW_ROLE, db);
  if (verdict.ok) return { ok: true, apiKeyId: verdict.key.id };
  if (verdict.reason === "forbidden") return { ok: false, reason: "forbidden" };
  if (!looksLikeApiKey(candidate)) return { ok: false, reason: "invalid" };
  const row = await findApiKeyByHash(hashSecret(candidate), db);
  if (!row) return { ok: false, reason: "invalid" };
  return { ok: false, reason: row.revokedAt ? "revoked" : "expired" };
}
