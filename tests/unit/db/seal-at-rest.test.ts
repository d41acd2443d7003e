import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type AppDatabase } from "@/db/client";
import { keyFileOf } from "@/db/master-key";
import { rotateSecretsKey } from "@/db/rotate-key";
import { appSecretAad, openBlob } from "@/db/sealed-secret";
import { auditHash } from "@/lib/domain/audit/log";
import { signingKey } from "@/lib/domain/verification/signing-key";
import { readLinkToken, signLinkToken } from "@/lib/domain/verification/link-token";
import { addEndpoint, enabledEndpointsForSending } from "@/lib/domain/webhooks/endpoints";
import { backupDatabase } from "@/lib/sqlite/backup";

// Secrets at rest (issue 29, item 10): the database file and its -wal/-shm are 0600; the webhook
// secrets and the link, challenge and audit keys are stored encrypted under a key outside the
// database; a backup alone holds none of them.

let dir: string;
let path: string;
const opened: AppDatabase[] = [];
const open = (file = path) => {
  const db = openDatabase(file);
  opened.push(db);
  return db;
};
const mode = (file: string) => statSync(file).mode & 0o777;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "waitlist-secrets-"));
  path = join(dir, "waitlist.db");
});
afterEach(() => {
  for (const db of opened.splice(0)) if (db.$client.open) db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A database with every kind of secret: the link and challenge keys, the audit key, a webhook secret. */
async function withSecrets(db: AppDatabase) {
  const endpoint = await addEndpoint("cli", { url: "https://hooks.example.com/in" }, db);
  return { link: await signingKey("link_signing_key", db), challenge: await signingKey("challenge_signing_key", db), whsec: endpoint.secret };
}

describe("file modes", () => {
  it("a new database, its -wal and -shm are 0600, and so is the key file, whatever the umask", () => {
    const umask = process.umask(0o022);
    try {
      const db = open();
      db.$client.prepare("CREATE TABLE written (x)").run();
      db.$client.prepare("INSERT INTO written VALUES (1)").run();
      expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`), mode(keyFileOf(path))]).toEqual([0o600, 0o600, 0o600, 0o600]);
    } finally {
      process.umask(umask);
    }
  });

  it("an existing database others could read (0644, from before) is made 0600 with its -wal and -shm when opened", () => {
    open().$client.close();
    chmodSync(path, 0o644);
    // Another connection keeps the -wal and -shm there, made with the file's mode.
    const raw = new Database(path);
    raw.prepare("CREATE TABLE x (y)").run();
    expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([0o644, 0o644, 0o644]);
    open();
    expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([0o600, 0o600, 0o600]);
    raw.close();
  });
});

describe("secrets at rest", () => {
  it("are stored encrypted: no key, no webhook secret appears in the file, and they still sign and verify", async () => {
    const db = open();
    const secrets = await withSecrets(db);
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
    const file = readFileSync(path);
    for (const secret of [secrets.link, secrets.challenge, Buffer.from(secrets.whsec)]) expect(file.includes(secret)).toBe(false);
    const stored = db.$client.prepare("SELECT value FROM app_secrets").all() as { value: Buffer }[];
    expect(stored.map((row) => row.value.subarray(0, 4).toString())).toEqual(stored.map(() => "wls1"));
    expect((db.$client.prepare("SELECT secret FROM webhook_endpoints").get() as { secret: string }).secret).toMatch(/^sealed:v1:/);
    expect((await enabledEndpointsForSending(db))[0]!.secret).toBe(secrets.whsec);
    const token = await signLinkToken({ purpose: "confirm", waitlistId: "w", signupId: 1, expiresAt: new Date(Date.now() + 60_000) }, db);
    expect((await readLinkToken(token, "confirm", Date.now(), db)).ok).toBe(true);
  });

  it("a backup alone forges nothing: it holds no key or secret, its values open with no other key, and it does not open without the key", async () => {
    const db = open();
    const secrets = await withSecrets(db);
    const audit = await auditHash("ada@example.com", db);
    const backup = join(dir, "backups", "copy.db");
    const result = await backupDatabase({ destination: backup }, db);
    expect(result.secrets_key_not_included).toBe(keyFileOf(path));
    expect(existsSync(keyFileOf(backup))).toBe(false);
    const file = readFileSync(backup);
    for (const secret of [secrets.link, secrets.challenge, Buffer.from(secrets.whsec)]) expect(file.includes(secret)).toBe(false);
    // The stored link key, used as a key, signs nothing the app accepts.
    const copy = new Database(backup, { readonly: true });
    const storedLinkKey = (copy.prepare("SELECT value FROM app_secrets WHERE name = 'link_signing_key'").get() as { value: Buffer }).value;
    copy.close();
    const { createHmac } = await import("node:crypto");
    const payload = `confirm.w.1.${Math.floor(Date.now() / 1000) + 600}`;
    const forged = `${Buffer.from(payload).toString("base64url")}.${createHmac("sha256", storedLinkKey).update(payload).digest("base64url")}`;
    expect(await readLinkToken(forged, "confirm", Date.now(), db)).toEqual({ ok: false, reason: "invalid" });
    // Opened as the app would, without its key: refused, naming the missing key file.
    expect(() => open(backup)).toThrow(`holds encrypted secrets, but their key is missing: neither SECRETS_KEY nor the key file ${keyFileOf(backup)} is there`);
    // With the key beside it, the restore is whole.
    copyFileSync(keyFileOf(path), keyFileOf(backup));
    const restored = open(backup);
    expect((await signingKey("link_signing_key", restored)).equals(secrets.link)).toBe(true);
    expect(await auditHash("ada@example.com", restored)).toBe(audit);
  });

  it("plain-text secrets from before are encrypted on the next open, keeping their values; opening again changes nothing", async () => {
    const db = open();
    const secrets = await withSecrets(db);
    const audit = await auditHash("ada@example.com", db);
    // The database as an older version left it: every secret in plain text, and no key file.
    const raw = db.$client;
    raw.prepare("UPDATE app_secrets SET value = ? WHERE name = ?").run(secrets.link, "link_signing_key");
    raw.prepare("UPDATE app_secrets SET value = ? WHERE name = ?").run(secrets.challenge, "challenge_signing_key");
    const auditKey = openBlob(path, (raw.prepare("SELECT value FROM app_secrets WHERE name = 'audit_hash_key'").get() as { value: Buffer }).value, appSecretAad("audit_hash_key"));
    raw.prepare("UPDATE app_secrets SET value = ? WHERE name = ?").run(auditKey, "audit_hash_key");
    raw.prepare("UPDATE webhook_endpoints SET secret = ?").run(secrets.whsec);
    raw.close();
    const upgraded = open();
    const sealed = () => upgraded.$client.prepare("SELECT name, value FROM app_secrets ORDER BY name").all();
    expect((upgraded.$client.prepare("SELECT count(*) AS n FROM app_secrets WHERE substr(value, 1, 4) = CAST('wls1' AS BLOB)").get() as { n: number }).n).toBe(3);
    expect((await signingKey("link_signing_key", upgraded)).equals(secrets.link)).toBe(true);
    expect(await auditHash("ada@example.com", upgraded)).toBe(audit);
    expect((await enabledEndpointsForSending(upgraded))[0]!.secret).toBe(secrets.whsec);
    const before = sealed();
    open();
    expect(sealed()).toEqual(before);
  });

  it("workers racing to open an upgraded file seal each secret once, under one key", async () => {
    const db = open();
    const secrets = await withSecrets(db);
    db.$client.prepare("UPDATE app_secrets SET value = ? WHERE name = ?").run(secrets.link, "link_signing_key");
    db.$client.prepare("UPDATE webhook_endpoints SET secret = ?").run(secrets.whsec);
    db.$client.close();
    rmSync(keyFileOf(path));
    // Plain text from before, no key file yet (the audit key of this file was sealed: drop it too).
    const raw = new Database(path);
    raw.prepare("DELETE FROM app_secrets WHERE name <> 'link_signing_key'").run();
    raw.close();
    const script = `const client = require("@/db/client"); client.openDatabase(process.argv[1]).$client.close();`;
    const workers = Array.from({ length: 4 }, () => spawn(process.execPath, ["--import", "tsx", "-e", script, path], { stdio: "inherit" }));
    expect(await Promise.all(workers.map(async (worker) => (await once(worker, "exit"))[0]))).toEqual([0, 0, 0, 0]);
    const reopened = open();
    expect((await signingKey("link_signing_key", reopened)).equals(secrets.link)).toBe(true);
    expect((await enabledEndpointsForSending(reopened))[0]!.secret).toBe(secrets.whsec);
  });

  it("rotate-key re-encrypts every secret under a new key file (0600), keeping their values", async () => {
    const db = open();
    const secrets = await withSecrets(db);
    const other = open();
    expect((await signingKey("link_signing_key", other)).equals(secrets.link)).toBe(true);
    const oldKey = readFileSync(keyFileOf(path));
    const before = db.$client.prepare("SELECT value FROM app_secrets WHERE name = 'link_signing_key'").get() as { value: Buffer };
    expect(await rotateSecretsKey(db)).toEqual({ secrets: 4, key: keyFileOf(path) });
    expect(readFileSync(keyFileOf(path)).equals(oldKey)).toBe(false);
    expect(mode(keyFileOf(path))).toBe(0o600);
    expect(existsSync(`${keyFileOf(path)}.next`)).toBe(false);
    const after = db.$client.prepare("SELECT value FROM app_secrets WHERE name = 'link_signing_key'").get() as { value: Buffer };
    expect(after.value.equals(before.value)).toBe(false);
    expect((await signingKey("link_signing_key", db)).equals(secrets.link)).toBe(true);
    expect((await enabledEndpointsForSending(other))[0]!.secret).toBe(secrets.whsec);
  });
});
