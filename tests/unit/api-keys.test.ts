import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiKey, hashSecret, listApiKeys, looksLikeApiKey, revokeApiKey, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { existsSync, readFileSync } from "node:fs";
import { issueApiKey } from "@/lib/domain/keys/manage";
import { listAudit } from "@/lib/domain/audit/log";
import { tempDatabase, type TempDatabase } from "./temp-db";

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
  it("creates a wl_ key of 32 random bytes and stores only its hash", () => {
    const created = createApiKey({ name: "ci", roles: [VIEW_ROLE, VIEW_ROLE] }, temp.db);
    expect(created.key).toMatch(/^wl_[A-Za-z0-9_-]{43}$/);
    expect(looksLikeApiKey(created.key)).toBe(true);
    expect(created.roles).toEqual([VIEW_ROLE]);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const row = storedRow(created.id);
    expect(row.key_hash).toBe(hashSecret(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(createApiKey({ name: "other", roles: [VIEW_ROLE] }, temp.db).key).not.toBe(created.key);
  });

  it("lists keys without the key or its hash", () => {
    const created = createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
    const listed = listApiKeys(temp.db);
    expect(listed).toEqual([
      { id: created.id, name: "ci", prefix: created.prefix, roles: [VIEW_ROLE], created_at: expect.any(String), last_used_at: null, expires_at: null, revoked_at: null, status: "active" },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(JSON.stringify(listed)).not.toContain(hashSecret(created.key));
  });

  it("lists each key's status as verifyApiKey sees it: active, revoked, expired from its expiry on", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const active = createApiKey({ name: "active", roles: [VIEW_ROLE] }, temp.db);
    const revoked = createApiKey({ name: "revoked", roles: [VIEW_ROLE] }, temp.db);
    revokeApiKey(revoked.id, temp.db);
    const expiring = createApiKey({ name: "expiring", roles: [VIEW_ROLE], expiresAt: new Date("2026-01-02T00:00:00Z") }, temp.db);
    const statuses = () => Object.fromEntries(listApiKeys(temp.db).map((key) => [key.name, key.status]));
    expect(statuses()).toEqual({ active: "active", revoked: "revoked", expiring: "active" });
    vi.setSystemTime(new Date("2026-01-02T00:00:00Z"));
    expect(statuses()).toEqual({ active: "active", revoked: "revoked", expiring: "expired" });
    for (const key of [active, revoked, expiring]) expect(verifyApiKey(key.key, VIEW_ROLE, temp.db).ok).toBe(key === active);
  });

  it("verifies a valid key with its role", () => {
    const created = createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
    const check = verifyApiKey(created.key, VIEW_ROLE, temp.db);
    expect(check.ok).toBe(true);
  });

  it.each([null, undefined, "", "wl_short", "Bearer x", `wl_${"A".repeat(43)}`])("refuses %j as unauthenticated", (presented) => {
    createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
    expect(verifyApiKey(presented, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
  });

  it("refuses a key without the role as forbidden", () => {
    const created = createApiKey({ name: "no roles", roles: [] }, temp.db);
    expect(verifyApiKey(created.key, VIEW_ROLE, temp.db)).toMatchObject({ ok: false, reason: "forbidden" });
  });

  it("refuses a revoked key; revoking twice keeps the first date; unknown ids are reported", () => {
    const created = createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
    expect(revokeApiKey(created.id, temp.db)).toBe(true);
    const first = storedRow(created.id).revoked_at;
    expect(revokeApiKey(created.id, temp.db)).toBe(true);
    expect(storedRow(created.id).revoked_at).toBe(first);
    expect(verifyApiKey(created.key, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
    expect(revokeApiKey("unknown", temp.db)).toBe(false);
  });

  it("refuses an expired key", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const created = createApiKey({ name: "ci", roles: [VIEW_ROLE], expiresAt: new Date("2026-01-02T00:00:00Z") }, temp.db);
    expect(verifyApiKey(created.key, VIEW_ROLE, temp.db).ok).toBe(true);
    vi.setSystemTime(new Date("2026-01-02T00:00:00Z"));
    expect(verifyApiKey(created.key, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
  });

  it("writes last_used_at at most once a minute", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = new Date("2026-01-01T00:00:00Z").getTime();
    vi.setSystemTime(start);
    const created = createApiKey({ name: "ci", roles: [VIEW_ROLE] }, temp.db);
    expect(storedRow(created.id).last_used_at).toBeNull();
    verifyApiKey(created.key, VIEW_ROLE, temp.db);
    expect(storedRow(created.id).last_used_at).toBe(start);
    vi.setSystemTime(start + 59_000);
    verifyApiKey(created.key, VIEW_ROLE, temp.db);
    expect(storedRow(created.id).last_used_at).toBe(start);
    vi.setSystemTime(start + 61_000);
    verifyApiKey(created.key, VIEW_ROLE, temp.db);
    expect(storedRow(created.id).last_used_at).toBe(start + 61_000);
  });
});

describe("issueApiKey (the dashboard's and the CLI's create)", () => {
  it("returns the key once and leaves it nowhere in the database file or its WAL: only its hash, and the audit row without it", () => {
    const created = issueApiKey({ name: "reporting", roles: [VIEW_ROLE] }, { keyId: "admin-key", keyName: "admin" }, temp.db);
    expect(created.key).toMatch(/^wl_[A-Za-z0-9_-]{43}$/);
    expect(storedRow(created.id).key_hash).toBe(hashSecret(created.key));
    expect(listAudit({ action: "key.create", limit: 1 }, temp.db)[0]).toMatchObject({ target: created.id, actor: "admin" });
    const secret = Buffer.from(created.key.slice(3));
    for (const file of [temp.path, `${temp.path}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes(secret), file).toBe(false);
    }
    temp.db.$client.pragma("wal_checkpoint(TRUNCATE)");
    expect(readFileSync(temp.path).includes(secret)).toBe(false);
  });
});
