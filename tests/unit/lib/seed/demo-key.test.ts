import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiKey, listApiKeys, verifyApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { listAudit } from "@/lib/domain/audit/log";
import { issueDemoKey } from "@/lib/seed/demo-key";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

let temp: TempDatabase;
beforeEach(() => (temp = tempDatabase()));
afterEach(() => temp.close());

describe("issueDemoKey", () => {
  it("leaves exactly one active key named demo, revoking the previous one and saying which", () => {
    const other = createApiKey({ name: "reporting script", roles: [VIEW_ROLE] }, temp.db);
    const first = issueDemoKey(temp.db);
    expect(first.revoked).toEqual([]);
    expect(first.key).toMatchObject({ name: "demo", roles: [VIEW_ROLE], expires_at: null });

    const second = issueDemoKey(temp.db);
    expect(second.revoked).toEqual([{ id: first.key.id, prefix: first.key.prefix }]);
    const active = listApiKeys(temp.db).filter((key) => key.revoked_at === null);
    expect(active.map((key) => [key.name, key.id]).sort()).toEqual([
      ["demo", second.key.id],
      ["reporting script", other.id],
    ]);
    expect(verifyApiKey(first.key.key, VIEW_ROLE, temp.db)).toEqual({ ok: false, reason: "unauthenticated" });
    expect(verifyApiKey(second.key.key, VIEW_ROLE, temp.db).ok).toBe(true);
    expect(verifyApiKey(other.key, VIEW_ROLE, temp.db).ok).toBe(true);
  });

  it("audits each key it creates and revokes, with the actor cli and never the key", () => {
    const first = issueDemoKey(temp.db);
    const second = issueDemoKey(temp.db);
    const rows = listAudit({ limit: 10 }, temp.db);
    expect(rows.map((row) => [row.actor, row.action, row.target])).toEqual([
      ["cli", "key.create", second.key.id],
      ["cli", "key.revoke", first.key.id],
      ["cli", "key.create", first.key.id],
    ]);
    for (const key of [first.key.key, second.key.key]) expect(JSON.stringify(rows)).not.toContain(key);
  });

  it("revokes every earlier active demo key, and keeps the date of one revoked before", () => {
    const keys = [issueDemoKey(temp.db), issueDemoKey(temp.db)].map(({ key }) => key);
    const revokedAt = listApiKeys(temp.db).find((key) => key.id === keys[0]!.id)!.revoked_at;
    // A second unrevoked demo key, as a concurrent run or an admin could have made.
    const extra = createApiKey({ name: "demo", roles: [VIEW_ROLE] }, temp.db);
    const last = issueDemoKey(temp.db);
    expect(last.revoked.map((key) => key.id).sort()).toEqual([keys[1]!.id, extra.id].sort());
    const demo = listApiKeys(temp.db).filter((key) => key.name === "demo");
    expect(demo.filter((key) => key.revoked_at === null).map((key) => key.id)).toEqual([last.key.id]);
    expect(demo.find((key) => key.id === keys[0]!.id)!.revoked_at).toBe(revokedAt);
  });
});
