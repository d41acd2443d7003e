import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/api-keys";
import { apiKeys } from "@/db/schema";
import { eq } from "drizzle-orm";
import { checkSignInKey, createSession, deleteSession, getSessionFromToken, SESSION_LIFETIME_MS } from "@/lib/sessions";
import { temporaryDatabase } from "./helpers";

const db = temporaryDatabase();

describe("sessions", () => {
  it("stores only the SHA-256 of a random token and finds the session by the token", () => {
    const key = createApiKey({ name: "viewer", roles: ["waitlist:view"] }, db);
    const { token, expiresAt } = createSession(key.id, db);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(SESSION_LIFETIME_MS - 5_000);
    const stored = db.$client.prepare("SELECT token_hash FROM sessions").all() as { token_hash: string }[];
    expect(stored.map((row) => row.token_hash)).not.toContain(token);
    expect(getSessionFromToken(token, db)?.key.id).toBe(key.id);
  });

  it("refuses unknown, empty and expired tokens", () => {
    const key = createApiKey({ name: "viewer", roles: ["waitlist:view"] }, db);
    const { token } = createSession(key.id, db);
    expect(getSessionFromToken("nope", db)).toBeNull();
    expect(getSessionFromToken("", db)).toBeNull();
    expect(getSessionFromToken(undefined, db)).toBeNull();
    expect(getSessionFromToken(token, db, new Date(Date.now() + SESSION_LIFETIME_MS + 1000))).toBeNull();
    // An expired session is deleted, not just ignored.
    expect(getSessionFromToken(token, db)).toBeNull();
  });

  it("ends when the key is revoked, expires or loses the role", () => {
    const revoked = createApiKey({ name: "r", roles: ["waitlist:view"] }, db);
    const revokedSession = createSession(revoked.id, db);
    revokeApiKey(revoked.id, db);
    expect(getSessionFromToken(revokedSession.token, db)).toBeNull();

    const expiring = createApiKey({ name: "e", roles: ["waitlist:view"], expiresAt: new Date(Date.now() + 60_000) }, db);
    const expiringSession = createSession(expiring.id, db);
    expect(getSessionFromToken(expiringSession.token, db)).not.toBeNull();
    expect(getSessionFromToken(expiringSession.token, db, new Date(Date.now() + 120_000))).toBeNull();

    const demoted = createApiKey({ name: "d", roles: ["waitlist:view"] }, db);
    const demotedSession = createSession(demoted.id, db);
    db.update(apiKeys).set({ roles: [] }).where(eq(apiKeys.id, demoted.id)).run();
    expect(getSessionFromToken(demotedSession.token, db)).toBeNull();
  });

  it("deleteSession ends a session", () => {
    const key = createApiKey({ name: "viewer", roles: ["waitlist:view"] }, db);
    const { token } = createSession(key.id, db);
    deleteSession(token, db);
    expect(getSessionFromToken(token, db)).toBeNull();
  });
});

describe("checkSignInKey", () => {
  it("accepts an active key with waitlist:view", () => {
    const key = createApiKey({ name: "ok", roles: ["waitlist:view"] }, db);
    expect(checkSignInKey(`  ${key.key}\n`, db)).toEqual({ ok: true, apiKeyId: key.id });
  });

  it("names the reason for a known key and says only 'invalid' otherwise", () => {
    const noRole = createApiKey({ name: "none", roles: [] }, db);
    const revoked = createApiKey({ name: "revoked", roles: ["waitlist:view"] }, db);
    revokeApiKey(revoked.id, db);
    const expired = createApiKey({ name: "expired", roles: ["waitlist:view"], expiresAt: new Date(Date.now() - 1000) }, db);
    expect(checkSignInKey(noRole.key, db)).toEqual({ ok: false, reason: "forbidden" });
    expect(checkSignInKey(revoked.key, db)).toEqual({ ok: false, reason: "revoked" });
    expect(checkSignInKey(expired.key, db)).toEqual({ ok: false, reason: "expired" });
    expect(checkSignInKey("wl_" + "A".repeat(43), db)).toEqual({ ok: false, reason: "invalid" });
    expect(checkSignInKey("hello", db)).toEqual({ ok: false, reason: "invalid" });
  });
});
