import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_ROLE, createApiKey, listApiKeys, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { listAudit } from "@/lib/domain/audit/log";
import { issueDemoKeys, keepOrIssueDemoKeys } from "@/lib/seed/demo-key";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

let temp: TempDatabase;
beforeEach(() => (temp = tempDatabase()));
afterEach(() => temp.close());

describe("issueDemoKeys", () => {
  it("leaves exactly one active admin key and one active view key, revoking the previous ones and saying which", async () => {
    const other = await createApiKey({ name: "reporting script", roles: [VIEW_ROLE] }, temp.db);
    const first = await issueDemoKeys(temp.db);
    expect(first.revoked).toEqual([]);
    expect(first.admin).toMatchObject({ name: "demo admin", roles: [ADMIN_ROLE], expires_at: null });
    expect(first.view).toMatchObject({ name: "demo", roles: [VIEW_ROLE], expires_at: null });

    const second = await issueDemoKeys(temp.db);
    expect(second.revoked.map((old) => old.id).sort()).toEqual([first.admin.id, first.view.id].sort());
    expect(second.revoked.find((old) => old.id === first.view.id)).toEqual({ id: first.view.id, name: "demo", prefix: first.view.prefix });
    const active = (await listApiKeys(temp.db)).filter((key) => key.revoked_at === null);
    expect(Object.fromEntries(active.map((key) => [key.name, key.id]))).toEqual({ demo: second.view.id, "demo admin": second.admin.id, "reporting script": other.id });
    expect(active).toHaveLength(3);
    for (const old of [first.admin, first.view]) expect(await verifyApiKey(old.key, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
    expect((await verifyApiKey(second.admin.key, ADMIN_ROLE, temp.db)).ok).toBe(true);
    expect((await verifyApiKey(second.view.key, VIEW_ROLE, temp.db)).ok).toBe(true);
    expect(await verifyApiKey(second.view.key, ADMIN_ROLE, temp.db)).toMatchObject({ ok: false });
    expect((await verifyApiKey(other.key, VIEW_ROLE, temp.db)).ok).toBe(true);
  });

  it("audits each key it creates and revokes, with the actor cli and never the key", async () => {
    const first = await issueDemoKeys(temp.db);
    const second = await issueDemoKeys(temp.db);
    const rows = await listAudit({ limit: 10 }, temp.db);
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

  it("revokes every earlier active demo key, and keeps the date of one revoked before", async () => {
    const keys = [await issueDemoKeys(temp.db), await issueDemoKeys(temp.db)].map(({ view }) => view);
    const revokedAt = (await listApiKeys(temp.db)).find((key) => key.id === keys[0]!.id)!.revoked_at;
    // A second unrevoked demo key, as a concurrent run or an admin could have made.
    const extra = await createApiKey({ name: "demo", roles: [VIEW_ROLE] }, temp.db);
    const last = await issueDemoKeys(temp.db);
    expect(last.revoked.map((key) => key.id)).toEqual(expect.arrayContaining([keys[1]!.id, extra.id]));
    const demo = (await listApiKeys(temp.db)).filter((key) => key.name === "demo");
    expect(demo.filter((key) => key.revoked_at === null).map((key) => key.id)).toEqual([last.view.id]);
    expect(demo.find((key) => key.id === keys[0]!.id)!.revoked_at).toBe(revokedAt);
  });
});

describe("keepOrIssueDemoKeys", () => {
  it("keeps the previous run's keys while both still work as the demo keys: same ids, nothing revoked or audited", async () => {
    const first = await keepOrIssueDemoKeys(undefined, temp.db);
    expect(first.kept).toBe(false);
    const audited = (await listAudit({ limit: 100 }, temp.db)).length;
    const again = await keepOrIssueDemoKeys({ admin: first.admin.key, view: first.view.key }, temp.db);
    expect(again).toMatchObject({ kept: true, revoked: [], admin: { id: first.admin.id, key: first.admin.key, name: "demo admin" }, view: { id: first.view.id, key: first.view.key, name: "demo" } });
    expect(await listAudit({ limit: 100 }, temp.db)).toHaveLength(audited);
    expect((await verifyApiKey(first.admin.key, ADMIN_ROLE, temp.db)).ok).toBe(true);
  });

  it("issues new keys (revoking the old ones) when one of them no longer works, or is not a demo key", async () => {
    const first = await keepOrIssueDemoKeys(undefined, temp.db);
    const other = await createApiKey({ name: "reporting script", roles: [VIEW_ROLE] }, temp.db);
    for (const previous of [{ admin: first.admin.key }, { admin: first.admin.key, view: other.key }, { admin: first.view.key, view: first.view.key }, { admin: "wl_not-a-key", view: first.view.key }]) {
      const current = (await listApiKeys(temp.db)).filter((key) => key.revoked_at === null && key.name.startsWith("demo"));
      const next = await keepOrIssueDemoKeys(previous, temp.db);
      expect(next.kept, JSON.stringify(previous)).toBe(false);
      expect(next.revoked.map((key) => key.id).sort()).toEqual(current.map((key) => key.id).sort());
    }
    expect((await verifyApiKey(other.key, VIEW_ROLE, temp.db)).ok).toBe(true);
  });
});
