import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/domain/keys/queries";
import { apiKeys } from "@/db/schema";
import { eq } from "drizzle-orm";
import { checkSignInKey, createSession, deleteSession, getSessionFromToken, lookupSession, SESSION_LIFETIME_MS } from "@/lib/domain/sessions";
import { SESSION_COOKIE_GRACE_MS } from "@/lib/domain/session-lifetime";
import { tempDatabase } from "@/tests/support/temp-db";

const { db } = tempDatabase();

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

  it("says why a session that exists was refused, every time, and nothing for an unknown token", () => {
    const later = new Date(Date.now() + 120_000);
    const revoked = createApiKey({ name: "r", roles: ["waitlist:view"] }, db);
    const revokedSession = createSession(revoked.id, db);
    revokeApiKey(revoked.id, db);
    expect(lookupSession(revokedSession.token, db)).toEqual({ ok: false, reason: "revoked" });
    // One page looks its session up several times (metadata, layouts, page): each hears why.
    expect(lookupSession(revokedSession.token, db)).toEqual({ ok: false, reason: "revoked" });

    const expiring = createApiKey({ name: "e", roles: ["waitlist:view"], expiresAt: new Date(Date.now() + 60_000) }, db);
    expect(lookupSession(createSession(expiring.id, db).token, db, later)).toEqual({ ok: false, reason: "key-expired" });

    const demoted = createApiKey({ name: "d", roles: ["waitlist:view"] }, db);
    const demotedSession = createSession(demoted.id, db);
    db.update(apiKeys).set({ roles: [] }).where(eq(apiKeys.id, demoted.id)).run();
    expect(lookupSession(demotedSession.token, db)).toEqual({ ok: false, reason: "role-removed" });

    const key = createApiKey({ name: "s", roles: ["waitlist:view"] }, db);
    const session = createSession(key.id, db);
    expect(lookupSession(session.token, db)).toMatchObject({ ok: true, session: { key: { id: key.id } } });
    expect(lookupSession(session.token, db, new Date(Date.now() + SESSION_LIFETIME_MS + 1000))).toEqual({ ok: false, reason: "session-expired" });

    expect(lookupSession("unknown", db)).toEqual({ ok: false });
    expect(lookupSession(undefined, db)).toEqual({ ok: false });
  });

  it("sweeps ended sessions at sign-in once their cookies are gone, not before", () => {
    const key = createApiKey({ name: "grace", roles: ["waitlist:view"] }, db);
    const start = new Date();
    const old = createSession(key.id, db, start);
    // Another sign-in just after the session expired sweeps only sessions whose cookies are gone.
    createSession(key.id, db, new Date(start.getTime() + SESSION_LIFETIME_MS + 1000));
    expect(lookupSession(old.token, db, new Date(start.getTime() + SESSION_LIFETIME_MS + 2000))).toEqual({ ok: false, reason: "session-expired" });

    const afterGrace = new Date(start.getTime() + SESSION_LIFETIME_MS + SESSION_COOKIE_GRACE_MS + 1000);
    createSession(key.id, db, afterGrace);
    expect(lookupSession(old.token, db, afterGrace)).toEqual({ ok: false });
    expect(db.$client.prepare("SELECT count(*) AS n FROM sessions WHERE expires_at <= ?").get(start.getTime() + SESSION_LIFETIME_MS)).toEqual({ n: 0 });
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
