import { describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/domain/keys/queries";
import { apiKeys } from "@/db/schema";
import { eq } from "drizzle-orm";
import { checkSignInKey, createSession, deleteSession, getSessionFromToken, lookupSession, SESSION_LIFETIME_MS } from "@/lib/domain/sessions";
import { SESSION_COOKIE_GRACE_MS } from "@/lib/domain/session-lifetime";
import { tempDatabase } from "@/tests/support/temp-db";

const { db } = tempDatabase();

describe("sessions", () => {
  it("stores only the SHA-256 of a random token and finds the session by the token", async () => {
    const key = await createApiKey({ name: "viewer", roles: ["waitlist:view"] }, db);
    const { token, expiresAt } = await createSession(key.id, db);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(SESSION_LIFETIME_MS - 5_000);
    const stored = db.$client.prepare("SELECT token_hash FROM sessions").all() as { token_hash: string }[];
    expect(stored.map((row) => row.token_hash)).not.toContain(token);
    expect((await getSessionFromToken(token, db))?.key.id).toBe(key.id);
  });

  it("refuses unknown, empty and expired tokens", async () => {
    const key = await createApiKey({ name: "viewer", roles: ["waitlist:view"] }, db);
    const { token } = await createSession(key.id, db);
    expect(await getSessionFromToken("nope", db)).toBeNull();
    expect(await getSessionFromToken("", db)).toBeNull();
    expect(await getSessionFromToken(undefined, db)).toBeNull();
    expect(await getSessionFromToken(token, db, new Date(Date.now() + SESSION_LIFETIME_MS + 1000))).toBeNull();
  });

  it("ends when the key is revoked, expires or loses the role", async () => {
    const revoked = await createApiKey({ name: "r", roles: ["waitlist:view"] }, db);
    const revokedSession = await createSession(revoked.id, db);
    await revokeApiKey(revoked.id, db);
    expect(await getSessionFromToken(revokedSession.token, db)).toBeNull();

    const expiring = await createApiKey({ name: "e", roles: ["waitlist:view"], expiresAt: new Date(Date.now() + 60_000) }, db);
    const expiringSession = await createSession(expiring.id, db);
    expect(await getSessionFromToken(expiringSession.token, db)).not.toBeNull();
    expect(await getSessionFromToken(expiringSession.token, db, new Date(Date.now() + 120_000))).toBeNull();

    const demoted = await createApiKey({ name: "d", roles: ["waitlist:view"] }, db);
    const demotedSession = await createSession(demoted.id, db);
    await db.update(apiKeys).set({ roles: [] }).where(eq(apiKeys.id, demoted.id)).run();
    expect(await getSessionFromToken(demotedSession.token, db)).toBeNull();
  });

  it("says why a session that exists was refused, every time, and nothing for an unknown token", async () => {
    const later = new Date(Date.now() + 120_000);
    const revoked = await createApiKey({ name: "r", roles: ["waitlist:view"] }, db);
    const revokedSession = await createSession(revoked.id, db);
    await revokeApiKey(revoked.id, db);
    expect(await lookupSession(revokedSession.token, db)).toEqual({ ok: false, reason: "revoked" });
    // One page looks its session up several times (metadata, layouts, page): each hears why.
    expect(await lookupSession(revokedSession.token, db)).toEqual({ ok: false, reason: "revoked" });

    const expiring = await createApiKey({ name: "e", roles: ["waitlist:view"], expiresAt: new Date(Date.now() + 60_000) }, db);
    expect(await lookupSession((await createSession(expiring.id, db)).token, db, later)).toEqual({ ok: false, reason: "key-expired" });

    const demoted = await createApiKey({ name: "d", roles: ["waitlist:view"] }, db);
    const demotedSession = await createSession(demoted.id, db);
    await db.update(apiKeys).set({ roles: [] }).where(eq(apiKeys.id, demoted.id)).run();
    expect(await lookupSession(demotedSession.token, db)).toEqual({ ok: false, reason: "role-removed" });

    const key = await createApiKey({ name: "s", roles: ["waitlist:view"] }, db);
    const session = await createSession(key.id, db);
    expect(await lookupSession(session.token, db)).toMatchObject({ ok: true, session: { key: { id: key.id } } });
    expect(await lookupSession(session.token, db, new Date(Date.now() + SESSION_LIFETIME_MS + 1000))).toEqual({ ok: false, reason: "session-expired" });

    expect(await lookupSession("unknown", db)).toEqual({ ok: false });
    expect(await lookupSession(undefined, db)).toEqual({ ok: false });
  });

  it("sweeps ended sessions at sign-in once their cookies are gone, not before", async () => {
    const key = await createApiKey({ name: "grace", roles: ["waitlist:view"] }, db);
    const start = new Date();
    const old = await createSession(key.id, db, start);
    // Another sign-in just after the session expired sweeps only sessions whose cookies are gone.
    await createSession(key.id, db, new Date(start.getTime() + SESSION_LIFETIME_MS + 1000));
    expect(await lookupSession(old.token, db, new Date(start.getTime() + SESSION_LIFETIME_MS + 2000))).toEqual({ ok: false, reason: "session-expired" });

    const afterGrace = new Date(start.getTime() + SESSION_LIFETIME_MS + SESSION_COOKIE_GRACE_MS + 1000);
    await createSession(key.id, db, afterGrace);
    expect(await lookupSession(old.token, db, afterGrace)).toEqual({ ok: false });
    expect(db.$client.prepare("SELECT count(*) AS n FROM sessions WHERE expires_at <= ?").get(start.getTime() + SESSION_LIFETIME_MS)).toEqual({ n: 0 });
  });

  it("deleteSession ends a session", async () => {
    const key = await createApiKey({ name: "viewer", roles: ["waitlist:view"] }, db);
    const { token } = await createSession(key.id, db);
    await deleteSession(token, db);
    expect(await getSessionFromToken(token, db)).toBeNull();
  });
});

describe("checkSignInKey", () => {
  it("accepts an active key with waitlist:view", async () => {
    const key = await createApiKey({ name: "ok", roles: ["waitlist:view"] }, db);
    expect(await checkSignInKey(`  ${key.key}\n`, db)).toEqual({ ok: true, apiKeyId: key.id });
  });

  it("names the reason for a known key and says only 'invalid' otherwise", async () => {
    const noRole = await createApiKey({ name: "none", roles: [] }, db);
    const revoked = await createApiKey({ name: "revoked", roles: ["waitlist:view"] }, db);
    await revokeApiKey(revoked.id, db);
    const expired = await createApiKey({ name: "expired", roles: ["waitlist:view"], expiresAt: new Date(Date.now() - 1000) }, db);
    expect(await checkSignInKey(noRole.key, db)).toEqual({ ok: false, reason: "forbidden" });
    expect(await checkSignInKey(revoked.key, db)).toEqual({ ok: false, reason: "revoked" });
    expect(await checkSignInKey(expired.key, db)).toEqual({ ok: false, reason: "expired" });
    expect(await checkSignInKey("wl_" + "A".repeat(43), db)).toEqual({ ok: false, reason: "invalid" });
    expect(await checkSignInKey("hello", db)).toEqual({ ok: false, reason: "invalid" });
  });
});
