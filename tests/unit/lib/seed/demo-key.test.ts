import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_ROLE, createApiKey, listApiKeys, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { listAudit } from "@/lib/domain/audit/log";
import { issueDemoKeys, keepOrIssueDemoKeys } from "@/lib/seed/demo-key";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

let temp: TempDatabase;
beforeEach(() => (temp = tempDatabase()));
afterEach(() => temp.close());

describe("issueDemoKeys", () => {
  it("leaves exactly one active admin key and one active view key, revoking the previous ones and saying which", () => {
    const other = createApiKey({ name: "reporting script", roles: [VIEW_ROLE] }, temp.db);
    const first = issueDemoKeys(temp.db);
    expect(first.revoked).toEqual([]);
    expect(first.admin).toMatchObject({ name: "demo admin", roles: [ADMIN_ROLE], expires_at: null });
    expect(first.view).toMatchObject({ name: "demo", roles: [VIEW_ROLE], expires_at: null });

    const second = issueDemoKeys(temp.db);
    expect(second.revoked.map((old) => old.id).sort()).toEqual([first.admin.id, first.view.id].sort());
    expect(second.revoked.find((old) => old.id === first.view.id)).toEqual({ id: first.view.id, name: "demo", prefix: first.view.prefix });
    const active = listApiKeys(temp.db).filter((key) => key.revoked_at === null);
    expect(Object.fromEntries(active.map((key) => [key.name, key.id]))).toEqual({ demo: second.view.id, "demo admin": second.admin.id, "reporting script": other.id });
    expect(active).toHaveLength(3);
    for (const old of [first.admin, first.view]) expect(verifyApiKey(old.key, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
    expect(verifyApiKey(second.admin.key, ADMIN_ROLE, temp.db).ok).toBe(true);
    expect(verifyApiKey(second.view.key, VIEW_ROLE, temp.db).ok).toBe(true);
    expect(verifyApiKey(second.view.key, ADMIN_ROLE, temp.db)).toMatchObject({ ok: false });
    expect(verifyApiKey(other.key, VIEW_ROLE, temp.db).ok).toBe(true);
  });

  it("audits each key it creates and revokes, with the actor cli and never the key", () => {
    const first = issueDemoKeys(temp.db);
    const second = issueDemoKeys(temp.db);
    const rows = listAudit({ limit: 10 }, temp.db);
    expect(rows.map((row) => [row.actor, row.action, row.target]).sort()).toEqual(
      [
        ["cli", "key.create", second.view.id],
        ["cli", "key.create", second.admin.id],
        ["cli", "key.revoke", first.view.id],
        ["cli", "key.revoke", first.admin.id],
        ["cli", "key.create", first.view.id],
        ["cli", "key.create", first.admin.id],
      ].sort(),
    );
    for (const key of [first.admin.key, first.view.key, second.admin.key, second.view.key]) expect(JSON.stringify(rows)).not.toContain(key);
  });

  it("revokes every earlier active demo key, and keeps the date of one revoked before", () => {
    const keys = [issueDemoKeys(temp.db), issueDemoKeys(temp.db)].map(({ view }) => view);
    const revokedAt = listApiKeys(temp.db).find((key) => key.id === keys[0]!.id)!.revoked_at;
    // A second unrevoked demo key, as a concurrent run or an admin could have made.
    const extra = createApiKey({ name: "demo", roles: [VIEW_ROLE] }, temp.db);
    const last = issueDemoKeys(temp.db);
    expect(last.revoked.map((key) => key.id)).toEqual(expect.arrayContaining([keys[1]!.id, extra.id]));
    const demo = listApiKeys(temp.db).filter((key) => key.name === "demo");
    expect(demo.filter((key) => key.revoked_at === null).map((key) => key.id)).toEqual([last.view.id]);
    expect(demo.find((key) => key.id === keys[0]!.id)!.revoked_at).toBe(revokedAt);
  });
});

describe("keepOrIssueDemoKeys", () => {
  it("keeps the previous run's keys while both still work as the demo keys: same ids, nothing revoked or audited", () => {
    const first = keepOrIssueDemoKeys(undefined, temp.db);
    expect(first.kept).toBe(false);
    const audited = listAudit({ limit: 100 }, temp.db).length;
    const again = keepOrIssueDemoKeys({ admin: first.admin.key, view: first.view.key }, temp.db);
    expect(again).toMatchObject({ kept: true, revoked: [], admin: { id: first.admin.id, key: first.admin.key, name: "demo admin" }, view: { id: first.view.id, key: first.view.key, name: "demo" } });
    expect(listAudit({ limit: 100 }, temp.db)).toHaveLength(audited);
    expect(verifyApiKey(first.admin.key, ADMIN_ROLE, temp.db).ok).toBe(true);
  });

  it("issues new keys (revoking the old ones) when one of them no longer works, or is not a demo key", () => {
    const first = keepOrIssueDemoKeys(undefined, temp.db);
    const other = createApiKey({ name: "reporting script", roles: [VIEW_ROLE] }, temp.db);
    for (const previous of [{ admin: first.admin.key }, { admin: first.admin.key, view: other.key }, { admin: first.view.key, view: first.view.key }, { admin: "wl_not-a-key", view: first.view.key }]) {
      const current = listApiKeys(temp.db).filter((key) => key.revoked_at === null && key.name.startsWith("demo"));
      const next = keepOrIssueDemoKeys(previous, temp.db);
      expect(next.kept, JSON.stringify(previous)).toBe(false);
      expect(next.revoked.map((key) => key.id).sort()).toEqual(current.map((key) => key.id).sort());
    }
    expect(verifyApiKey(other.key, VIEW_ROLE, temp.db).ok).toBe(true);
  });
});
