import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { secretsKeyFromEnv } from "@/lib/core/env";
import type { AppDatabase } from "./app-database";
import { KEY_LENGTH, keyFileOf, masterKeyOf, nextKeyFileOf, promoteNextKey, writeKeyFileOnce } from "./master-key";
import { appSecretAad, blobText, endpointSecretAad, forgetKeys, isSealedBlob, isSealedText, openWith, SecretsKeyError, sealWith, textBlob } from "./sealed-secret";

// `npm run cli -- secrets rotate-key`: every secret re-encrypted under a new master key, in one
// transaction. With the key file: the new key is written to `<DATABASE_PATH>.key.next` (0600) before
// the commit and renamed over the key file after it; a process that finds a value its key no longer
// opens reads the key file again (and finishes a rotation stopped between commit and rename:
// ./sealed-secret.ts), so a running server follows without a restart. With SECRETS_KEY, the new key
// comes from SECRETS_KEY_NEXT; every process must then be restarted with SECRETS_KEY set to it.

export interface RotationResult {
  secrets: number;
  /** Where the new key is: the key file, or "SECRETS_KEY_NEXT". */
  key: string;
}

function nextKeyFromEnv(): Buffer {
  const key = secretsKeyFromEnv("SECRETS_KEY_NEXT");
  if (!key) throw new SecretsKeyError("SECRETS_KEY is set: put the new key in SECRETS_KEY_NEXT (32 bytes, as 64 hex digits or base64: openssl rand -hex 32) and run this again.");
  return key;
}

/** Re-encrypts every secret of `db` (SQLite's file, or PostgreSQL, whose key is always SECRETS_KEY) under the new key, in one write transaction. */
export async function rotateSecretsKey(db: AppDatabase): Promise<RotationResult> {
  const engine = db.$engine;
  const path = engine.location;
  const fromEnv = secretsKeyFromEnv() !== undefined;
  const oldKey = masterKeyOf(path, true)!;
  rmSync(nextKeyFileOf(path), { force: true });
  const newKey = fromEnv ? nextKeyFromEnv() : writeKeyFileOnce(nextKeyFileOf(path), randomBytes(KEY_LENGTH));
  let secrets = 0;
  const reseal = (stored: Buffer, aad: string) => {
    const plaintext = isSealedBlob(stored) ? openWith(oldKey, stored, aad) : stored;
    if (!plaintext) throw new SecretsKeyError(`A secret of ${path} (${aad}) does not open with the current key: nothing was rotated.`);
    secrets++;
    return sealWith(newKey, plaintext, aad);
  };
  try {
    await engine.transaction("write", async () => {
      const updateSecret = engine.prepare("UPDATE app_secrets SET value = ? WHERE name = ?");
      for (const { name, value } of await engine.prepare("SELECT name, value FROM app_secrets").all<{ name: string; value: Buffer }>([])) {
        await updateSecret.run([reseal(value, appSecretAad(name)), name]);
      }
      const updateEndpoint = engine.prepare("UPDATE webhook_endpoints SET secret = ? WHERE id = ?");
      for (const { id, secret } of await engine.prepare("SELECT id, secret FROM webhook_endpoints").all<{ id: string; secret: string }>([])) {
        await updateEndpoint.run([blobText(reseal(isSealedText(secret) ? textBlob(secret) : Buffer.from(secret, "utf8"), endpointSecretAad(id))), id]);
      }
    });
  } catch (error) {
    if (!fromEnv) rmSync(nextKeyFileOf(path), { force: true });
    throw error;
  }
  if (!fromEnv) promoteNextKey(path);
  forgetKeys();
  return { secrets, key: fromEnv ? "SECRETS_KEY_NEXT" : keyFileOf(path) };
}
