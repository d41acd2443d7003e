import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import type Database from "better-sqlite3";
import { secretsKeyFromEnv } from "@/lib/core/env";
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

// Raw: it works on the bare connection the CLI hands it (as seal-at-rest.ts), with no Drizzle client.
export function rotateSecretsKey(sqlite: Database.Database): RotationResult {
  const path = sqlite.name;
  const fromEnv = secretsKeyFromEnv() !== undefined;
  const oldKey = masterKeyOf(path, true)!;
  rmSync(nextKeyFileOf(path), { force: true });
  const newKey = fromEnv ? nextKeyFromEnv() : writeKeyFileOnce(nextKeyFileOf(path), randomBytes(KEY_LENGTH));
  let secrets = 0;
  try {
    sqlite
      .transaction(() => {
        const reseal = (stored: Buffer, aad: string) => {
          const plaintext = isSealedBlob(stored) ? openWith(oldKey, stored, aad) : stored;
          if (!plaintext) throw new SecretsKeyError(`A secret of ${path} (${aad}) does not open with the current key: nothing was rotated.`);
          secrets++;
          return sealWith(newKey, plaintext, aad);
        };
        const updateSecret = sqlite.prepare("UPDATE app_secrets SET value = ? WHERE name = ?");
        for (const { name, value } of sqlite.prepare("SELECT name, value FROM app_secrets").all() as { name: string; value: Buffer }[]) {
          updateSecret.run(reseal(value, appSecretAad(name)), name);
        }
        const updateEndpoint = sqlite.prepare("UPDATE webhook_endpoints SET secret = ? WHERE id = ?");
        for (const { id, secret } of sqlite.prepare("SELECT id, secret FROM webhook_endpoints").all() as { id: string; secret: string }[]) {
          updateEndpoint.run(blobText(reseal(isSealedText(secret) ? textBlob(secret) : Buffer.from(secret, "utf8"), endpointSecretAad(id))), id);
        }
      })
      .immediate();
  } catch (error) {
    if (!fromEnv) rmSync(nextKeyFileOf(path), { force: true });
    throw error;
  }
  if (!fromEnv) promoteNextKey(path);
  forgetKeys();
  return { secrets, key: fromEnv ? "SECRETS_KEY_NEXT" : keyFileOf(path) };
}
