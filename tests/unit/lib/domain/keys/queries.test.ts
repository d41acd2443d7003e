import { existsSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiKeys } from "@/db/schema";
import { listAudit } from "@/lib/domain/audit/log";
import { issueApiKey } from "@/lib/domain/keys/manage";
import { createApiKey, hashSecret, listApiKeys, looksLikeApiKey, revokeApiKey, verifyApiKey, VIEW_ROLE, ADMIN_ROLE, rolesGrant } from "@/lib/domain/keys/queries";
import { checkSignInKey, createSession, lookupSession } from "@/lib/domain/sessions";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

describe("API keys", () => {
  let temp: TempDatabase;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => {
    vi.useRealTimers();
    temp.close();
  });

  function storedRow(id: string) {
    return temp.db.$client.prepare("SELECT * FROM api_keys WHERE id = ?").get(id) as Record<string, unknown>;
  }

  describe("API keys", () => {
    it("creates a wl_ key of 32 random bytes and stores only its hash", async () => {
      const created = await createApiKey({ name: "ci", roles: [VIEW_ROLE, VIEW_ROLE] }, temp.db);
      expect(created.key).toMatch(/^wl_[A-Za-z0-9_-]{43}$/);
      expect(looksLikeApiKey(created.key)).toBe(true);
      expect(created.roles).toEqual([VIEW_ROLE]);
      expect(created.key.startsWith(created.prefix)).toBe(true);
      const row = storedRow(created.id);
      expect(row.key_hash).toBe(hashSecret(created.key));
      expect(JSON.stringify(row)).not.toContain(created.key);
      expect((await createApiKey({ name: "other", roles: [VIEW_ROLE] }, temp.db)).key).not.toBe(created.key);
    });

    it("lists keys without the key or its hash", async () => {
      const created = await createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
      const listed = await listApiKeys(temp.db);
      expect(listed).toEqual([
        { id: created.id, name: "ci", prefix: created.prefix, roles: [VIEW_ROLE], created_at: expect.any(String), last_used_at: null, expires_at: null, revoked_at: null, status: "active" },
      ]);
      expect(JSON.stringify(listed)).not.toContain(created.key);
      expect(JSON.stringify(listed)).not.toContain(hashSecret(created.key));
    });

    it("lists each key's status as verifyApiKey sees it: active, revoked, expired from its expiry on", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
      const active = await createApiKey({ name: "active", roles: [VIEW_ROLE] }, temp.db);
      const revoked = await createApiKey({ name: "revoked", roles: [VIEW_ROLE] }, temp.db);
      await revokeApiKey(revoked.id, temp.db);
      const expiring = await createApiKey({ name: "expiring", roles: [VIEW_ROLE], expiresAt: new Date("2026-01-02T00:00:00Z") }, temp.db);
      const statuses = async () => Object.fromEntries((await listApiKeys(temp.db)).map((key) => [key.name, key.status]));
      expect(await statuses()).toEqual({ active: "active", revoked: "revoked", expiring: "active" });
      vi.setSystemTime(new Date("2026-01-02T00:00:00Z"));
      expect(await statuses()).toEqual({ active: "active", revoked: "revoked", expiring: "expired" });
      for (const key of [active, revoked, expiring]) expect((await verifyApiKey(key.key, VIEW_ROLE, temp.db)).ok).toBe(key === active);
    });

    it("verifies a valid key with its role", async () => {
      const created = await createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
      const check = await verifyApiKey(created.key, VIEW_ROLE, temp.db);
      expect(check.ok).toBe(true);
    });

    it.each([null, undefined, "", "wl_short", "Bearer x", `wl_${"A".repeat(43)}`])("refuses %j as unauthenticated", async (presented) => {
      await createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
      expect(await verifyApiKey(presented, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
    });

    it("refuses a key without the role as forbidden", async () => {
      const created = await createApiKey({ name: "no roles", roles: [] }, temp.db);
      expect(await verifyApiKey(created.key, VIEW_ROLE, temp.db)).toMatchObject({ ok: false, reason: "forbidden" });
    });

    it("refuses a revoked key; revoking twice keeps the first date; unknown ids are reported", async () => {
      const created = await createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
      expect(await revokeApiKey(created.id, temp.db)).toBe(true);
      const first = storedRow(created.id).revoked_at;
      expect(await revokeApiKey(created.id, temp.db)).toBe(true);
      expect(storedRow(created.id).revoked_at).toBe(first);
      expect(await verifyApiKey(created.key, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
      expect(await revokeApiKey("unknown", temp.db)).toBe(false);
    });

    it("refuses an expired key", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
      const created = await createApiKey({ name: "ci", roles: [VIEW_ROLE], expiresAt: new Date("2026-01-02T00:00:00Z") }, temp.db);
      expect((await verifyApiKey(created.key, VIEW_ROLE, temp.db)).ok).toBe(true);
      vi.setSystemTime(new Date("2026-01-02T00:00:00Z"));
      expect(await verifyApiKey(created.key, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
    });

    it("writes last_used_at at most once a minute", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const start = new Date("2026-01-01T00:00:00Z").getTime();
      vi.setSystemTime(start);
      const created = await createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
      expect(storedRow(created.id).last_used_at).toBeNull();
      await verifyApiKey(created.key, VIEW_ROLE, temp.db);
      expect(storedRow(created.id).last_used_at).toBe(start);
      vi.setSystemTime(start + 59_000);
      await verifyApiKey(created.key, VIEW_ROLE, temp.db);
      expect(storedRow(created.id).last_used_at).toBe(start);
      vi.setSystemTime(start + 61_000);
      await verifyApiKey(created.key, VIEW_ROLE, temp.db);
      expect(storedRow(created.id).last_used_at).toBe(start + 61_000);
    });
  });

  describe("issueApiKey (the dashboard's and the CLI's create)", () => {
    it("returns the key once and leaves it nowhere in the database file or its WAL: only its hash, and the audit row without it", async () => {
      const created = await issueApiKey({ name: "reporting", roles: [VIEW_ROLE] }, { keyId: "admin-key", keyName: "admin" }, temp.db);
      expect(created.key).toMatch(/^wl_[A-Za-z0-9_-]{43}$/);
      expect(storedRow(created.id).key_hash).toBe(hashSecret(created.key));
      expect((await listAudit({ action: "key.create", limit: 1 }, temp.db))[0]).toMatchObject({ target: created.id, actor: "admin" });
      const secret = Buffer.from(created.key.slice(3));
      for (const file of [temp.path, `${temp.path}-wal`]) {
        if (existsSync(file)) expect(readFileSync(file).includes(secret), file).toBe(false);
      }
      temp.db.$client.pragma("wal_checkpoint(TRUNCATE)");
      expect(readFileSync(temp.path).includes(secret)).toBe(false);
    });
  });
});

describe("key verification", () => {
  let temp: TempDatabase;

  beforeEach(() => {
    temp = tempDatabase();
  });

  afterEach(() => {
    vi.restoreAllMocks();
    temp.close();
  });

  describe("verifyApiKey", () => {
    it("looks keys up by the SHA-256 of what was presented: the guess itself is never compared", async () => {
      const { key } = await createApiKey({ name: "k", roles: ["waitlist:view"] }, temp.db);
      const lookups: { source: string; bound: unknown[] }[] = [];
      const prepare = temp.db.$client.prepare.bind(temp.db.$client);
      vi.spyOn(temp.db.$client, "prepare").mockImplementation(((source: string) => {
        const statement = prepare(source);
        const get = statement.get.bind(statement);
        statement.get = ((...bound: unknown[]) => (lookups.push({ source, bound }), get(...bound))) as typeof statement.get;
        return statement;
      }) as typeof prepare);
      // Guesses sharing 0 and 40 leading characters with the real key take the same path: one hash,
      // one indexed lookup of that hash, nothing found.
      for (const guess of [`wl_${"Z".repeat(43)}`, key.slice(0, 40) + "AAAAAA"]) {
        lookups.length = 0;
        expect(await verifyApiKey(guess, "waitlist:view", temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
        expect(lookups).toHaveLength(1);
        expect(lookups[0]!.source).toMatch(/"key_hash" = \?/);
        expect(lookups[0]!.bound).toEqual([hashSecret(guess)]);
      }
    });

    it("does not wait for another process's write lock to record last_used_at", async () => {
      const { key, id } = await createApiKey({ name: "k", roles: ["waitlist:view"] }, temp.db);
      const other = new Database(temp.path);
      other.exec("BEGIN IMMEDIATE");
      const started = performance.now();
      expect((await verifyApiKey(key, "waitlist:view", temp.db)).ok).toBe(true);
      expect(performance.now() - started).toBeLessThan(1000);
      other.exec("ROLLBACK");
      other.close();
      const row = async () => (await temp.db.select().from(apiKeys).all()).find((candidate) => candidate.id === id)!;
      expect((await row()).lastUsedAt).toBeNull();
      // The busy timeout is back, and the next use records the time.
      expect(temp.db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
      expect((await verifyApiKey(key, "waitlist:view", temp.db)).ok).toBe(true);
      expect((await row()).lastUsedAt).not.toBeNull();
    });
  });
});

describe("roles", () => {
  let temp: TempDatabase;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => temp.close());

  describe("roles", () => {
    it("an admin role includes view; view does not include admin; unknown roles grant nothing", () => {
      expect(rolesGrant([ADMIN_ROLE], VIEW_ROLE)).toBe(true);
      expect(rolesGrant([ADMIN_ROLE], ADMIN_ROLE)).toBe(true);
      expect(rolesGrant([VIEW_ROLE], ADMIN_ROLE)).toBe(false);
      expect(rolesGrant([VIEW_ROLE], VIEW_ROLE)).toBe(true);
      expect(rolesGrant(["waitlist:owner", "constructor", "__proto__"], VIEW_ROLE)).toBe(false);
      expect(rolesGrant([], VIEW_ROLE)).toBe(false);
    });

    it("an admin key passes the API's view check and signs in; a view key fails an admin check", async () => {
      const admin = await createApiKey({ name: "admin", roles: [ADMIN_ROLE] }, temp.db);
      const viewer = await createApiKey({ name: "viewer", roles: [VIEW_ROLE] }, temp.db);
      expect((await verifyApiKey(admin.key, VIEW_ROLE, temp.db)).ok).toBe(true);
      expect((await verifyApiKey(admin.key, ADMIN_ROLE, temp.db)).ok).toBe(true);
      expect(await verifyApiKey(viewer.key, ADMIN_ROLE, temp.db)).toMatchObject({ ok: false, reason: "forbidden" });
      expect(await checkSignInKey(admin.key, temp.db)).toEqual({ ok: true, apiKeyId: admin.id });
    });

    it("a session of an admin-only key stays valid (it holds view through admin)", async () => {
      const admin = await createApiKey({ name: "admin", roles: [ADMIN_ROLE] }, temp.db);
      const { token } = await createSession(admin.id, temp.db);
      const lookup = await lookupSession(token, temp.db);
      expect(lookup.ok && lookup.session.key.roles).toEqual([ADMIN_ROLE]);
    });
  });
});
