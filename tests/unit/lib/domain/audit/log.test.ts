import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appSecretAad, openBlob } from "@/db/sealed-secret";
import { AUDIT_ACTIONS, auditHash, listAudit, recordAudit } from "@/lib/domain/audit/log";
import { writeTransaction } from "@/lib/store/transaction";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

let temp: TempDatabase;
beforeEach(() => (temp = tempDatabase()));
afterEach(() => {
  vi.useRealTimers();
  temp.close();
});

const admin = { keyId: "key-1", keyName: "Ada's laptop" };

/** The hash key as stored (encrypted: db/sealed-secret.ts), opened with the database's key. */
function hashKey(db = temp.db): Buffer {
  const stored = (db.$client.prepare("SELECT value FROM app_secrets WHERE name = 'audit_hash_key'").get() as { value: Buffer }).value;
  return openBlob(db.$client.name, stored, appSecretAad("audit_hash_key"));
}

describe("audit log", () => {
  it("migration 0005 gives each database its own 32-byte hash key", async () => {
    const other = tempDatabase();
    try {
      expect(hashKey()).toHaveLength(32);
      expect(hashKey(other.db)).toHaveLength(32);
      expect(hashKey().equals(hashKey(other.db))).toBe(false);
      expect(await auditHash("ada@example.com", temp.db)).not.toBe(await auditHash("ada@example.com", other.db));
    } finally {
      other.close();
    }
  });

  it("auditHash is the HMAC-SHA256 of the lower-cased text under that key", async () => {
    const expected = createHmac("sha256", hashKey()).update("ada@example.com").digest("hex");
    expect(await auditHash("Ada@Example.COM", temp.db)).toBe(expected);
    expect(await auditHash("ada@example.com", temp.db)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    expect(await auditHash("grace@example.com", temp.db)).not.toBe(expected);
  });

  it("records the actor by key id and name, or cli, with the time; lists newest first", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-01T10:00:00Z"));
    await recordAudit({ actor: "cli", action: "key.create", target: "wl_abc123", summary: "created key ci (waitlist:view)" }, temp.db);
    vi.setSystemTime(new Date("2026-11-01T10:05:00Z"));
    await recordAudit({ actor: admin, action: "key.revoke", target: "wl_abc123", summary: "revoked key ci" }, temp.db);
    expect(await listAudit({ limit: 10 }, temp.db)).toEqual([
      { id: 2, at: new Date("2026-11-01T10:05:00Z"), actorKeyId: "key-1", actor: "Ada's laptop", action: "key.revoke", target: "wl_abc123", summary: "revoked key ci" },
      { id: 1, at: new Date("2026-11-01T10:00:00Z"), actorKeyId: null, actor: "cli", action: "key.create", target: "wl_abc123", summary: "created key ci (waitlist:view)" },
    ]);
  });

  it("filters by action and by actor (name, key id or cli), and pages with before", async () => {
    for (let index = 0; index < 5; index++) {
      await recordAudit({ actor: index % 2 === 0 ? "cli" : admin, action: AUDIT_ACTIONS[index]!, target: `t${index}`, summary: `s${index}` }, temp.db);
    }
    const targets = (rows: { target: string }[]) => rows.map((row) => row.target);
    expect(targets(await listAudit({ action: "waitlist.update", limit: 10 }, temp.db))).toEqual(["t1"]);
    expect(targets(await listAudit({ actor: "cli", limit: 10 }, temp.db))).toEqual(["t4", "t2", "t0"]);
    expect(targets(await listAudit({ actor: "Ada's laptop", limit: 10 }, temp.db))).toEqual(["t3", "t1"]);
    expect(targets(await listAudit({ actor: "key-1", limit: 10 }, temp.db))).toEqual(["t3", "t1"]);
    expect(targets(await listAudit({ actor: "cli", action: "waitlist.delete", limit: 10 }, temp.db))).toEqual(["t2"]);
    const first = await listAudit({ limit: 2 }, temp.db);
    expect(targets(first)).toEqual(["t4", "t3"]);
    expect(targets(await listAudit({ limit: 2, before: first.at(-1)!.id }, temp.db))).toEqual(["t2", "t1"]);
    expect(targets(await listAudit({ limit: 2, before: 2 }, temp.db))).toEqual(["t0"]);
  });

  it("a row recorded inside a write's transaction goes when that transaction rolls back", async () => {
    const failingWrite = writeTransaction(temp.db, async () => {
      await recordAudit({ actor: "cli", action: "waitlist.delete", target: "w1", summary: "deleted" }, temp.db);
      throw new Error("the write failed");
    });
    await expect(failingWrite).rejects.toThrow("the write failed");
    expect(await listAudit({ limit: 10 }, temp.db)).toEqual([]);
  });
});
