import type Database from "better-sqlite3";
import { storageFailureOf } from "@/lib/core/storage-failure";
import { hasMasterKey, keyFileOf, masterKeyOf, pendingNextKey } from "./master-key";
import { appSecretAad, blobText, endpointSecretAad, SecretsKeyError, sealWith } from "./sealed-secret";

// Secrets stored in plain text (every database before this version, and migration 0005's audit key)
// are encrypted the first time a process opens the database: in one IMMEDIATE transaction that reads
// them again under the write lock, so workers racing to open a file seal each secret once, and a
// failed open leaves them all as they were. A secret still in plain text reads as it is meanwhile
// (./sealed-secret.ts), so a file that cannot be written now (read-only, locked, full) still opens.

const SEALED_BLOB = "substr(value, 1, 4) = CAST('wls1' AS BLOB)";
const SEALED_TEXT = "secret LIKE 'sealed:v1:%'";

// Raw here and below: it runs on the bare connection while the file is opened, before the app's Drizzle client exists.
function plaintextSecrets(sqlite: Database.Database) {
  return {
    appSecrets: sqlite.prepare(`SELECT name, value FROM app_secrets WHERE NOT (${SEALED_BLOB})`).all() as { name: string; value: Buffer }[],
    endpoints: sqlite.prepare(`SELECT id, secret FROM webhook_endpoints WHERE NOT (${SEALED_TEXT})`).all() as { id: string; secret: string }[],
  };
}

function holdsSealedSecrets(sqlite: Database.Database): boolean {
  return (sqlite.prepare(`SELECT EXISTS (SELECT 1 FROM app_secrets WHERE ${SEALED_BLOB}) OR EXISTS (SELECT 1 FROM webhook_endpoints WHERE ${SEALED_TEXT}) AS found`).get() as { found: number }).found === 1;
}

/**
 * Checks that a database holding encrypted secrets has their key (else throws SecretsKeyError: a new
 * key would open none of them), then encrypts the secrets still in plain text.
 */
export function sealSecretsAtRest(sqlite: Database.Database): void {
  // A database migrated only part of the way (the migration tests) has nothing to seal yet.
  const tables = sqlite.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('app_secrets', 'webhook_endpoints')").get() as { n: number };
  if (tables.n < 2) return;
  const path = sqlite.name;
  const sealed = holdsSealedSecrets(sqlite);
  if (sealed && !hasMasterKey(path)) {
    throw new SecretsKeyError(
      `${path} holds encrypted secrets, but their key is missing: neither SECRETS_KEY nor the key file ${keyFileOf(path)} is there. ` +
        "Put the key back beside the database (or set SECRETS_KEY); if it is lost, see /docs/operations, \"The secrets key\".",
    );
  }
  const found = plaintextSecrets(sqlite);
  if (found.appSecrets.length === 0 && found.endpoints.length === 0) return;
  try {
    sqlite
      .transaction(() => {
        const { appSecrets, endpoints } = plaintextSecrets(sqlite);
        if (appSecrets.length === 0 && endpoints.length === 0) return;
        const key = masterKeyOf(path, !holdsSealedSecrets(sqlite)) ?? pendingNextKey(path)!;
        const updateSecret = sqlite.prepare("UPDATE app_secrets SET value = ? WHERE name = ?");
        for (const { name, value } of appSecrets) updateSecret.run(sealWith(key, value, appSecretAad(name)), name);
        const updateEndpoint = sqlite.prepare("UPDATE webhook_endpoints SET secret = ? WHERE id = ?");
        for (const { id, secret } of endpoints) updateEndpoint.run(blobText(sealWith(key, Buffer.from(secret, "utf8"), endpointSecretAad(id))), id);
      })
      .immediate();
  } catch (error) {
    // Sealed by the next process that can write the file (and, for the key file, its folder).
    if (storageFailureOf(error) || (error as NodeJS.ErrnoException).syscall !== undefined) return;
    throw error;
  }
}
