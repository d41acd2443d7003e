import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { keySourceOf, masterKeyOf, pendingNextKey, promoteNextKey } from "./master-key";

// Secrets at rest (webhook secrets, the link, challenge and audit keys): AES-256-GCM under the master
// key (./master-key.ts), each bound to where it is stored (`aad`: its table and row), so a sealed
// value copied to another row does not open. A sealed blob is MAGIC, a 12-byte nonce, the 16-byte tag
// and the ciphertext; a sealed text column holds `sealed:v1:` and that blob in base64. A value
// without the marker is a secret stored before encryption: it reads as it is, and is sealed the next
// time a process opens the database (./seal-at-rest.ts).

const MAGIC = Buffer.from("wls1");
const TEXT_PREFIX = "sealed:v1:";
const NONCE = 12;
const TAG = 16;

export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretsKeyError";
  }
}

export function isSealedBlob(value: Buffer): boolean {
  return value.length > MAGIC.length + NONCE + TAG && value.subarray(0, MAGIC.length).equals(MAGIC);
}

export function isSealedText(value: string): boolean {
  return value.startsWith(TEXT_PREFIX);
}

export function sealWith(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const nonce = randomBytes(NONCE);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([MAGIC, nonce, cipher.getAuthTag(), body]);
}

/** The plaintext, or undefined when `key` is not the one `sealed` was made with (or it was altered). */
export function openWith(key: Buffer, sealed: Buffer, aad: string): Buffer | undefined {
  const nonce = sealed.subarray(MAGIC.length, MAGIC.length + NONCE);
  const tag = sealed.subarray(MAGIC.length + NONCE, MAGIC.length + NONCE + TAG);
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(sealed.subarray(MAGIC.length + NONCE + TAG)), decipher.final()]);
  } catch {
    return undefined;
  }
}

// One key per database path per process, read once; read again when it no longer opens a value (a
// rotation by another process).
const keys = new Map<string, Buffer>();

function currentKey(databasePath: string): Buffer {
  let key = keys.get(databasePath);
  if (!key) {
    key = masterKeyOf(databasePath, true)!;
    keys.set(databasePath, key);
  }
  return key;
}

/** Forgets the keys read so far (a rotation in this process). */
export function forgetKeys(): void {
  keys.clear();
}

export function sealBlob(databasePath: string, plaintext: Buffer, aad: string): Buffer {
  return sealWith(currentKey(databasePath), plaintext, aad);
}

export function sealText(databasePath: string, plaintext: string, aad: string): string {
  return TEXT_PREFIX + sealBlob(databasePath, Buffer.from(plaintext, "utf8"), aad).toString("base64");
}

// What each sealed value opened to: the signing keys are read on every join and every link, and
// AES-GCM's set-up costs more than the read. Keyed by the sealed bytes and where they are stored, so a
// rotation (new bytes) never meets a stale entry.
const opened = new Map<string, Buffer>();
const MAX_OPENED = 1000;

/** A stored secret's plaintext (a value stored before encryption: as it is). Throws SecretsKeyError when the key does not open it. */
export function openBlob(databasePath: string, stored: Buffer, aad: string): Buffer {
  if (!isSealedBlob(stored)) return stored;
  const cacheKey = `${databasePath}\0${aad}\0${stored.toString("base64")}`;
  const known = opened.get(cacheKey);
  if (known) return known;
  const plaintext = openSealed(databasePath, stored, aad);
  if (opened.size >= MAX_OPENED) opened.clear();
  opened.set(cacheKey, plaintext);
  return plaintext;
}

function openSealed(databasePath: string, stored: Buffer, aad: string): Buffer {
  const first = openWith(currentKey(databasePath), stored, aad);
  if (first) return first;
  keys.delete(databasePath);
  const reread = masterKeyOf(databasePath, false);
  const again = reread && openWith(reread, stored, aad);
  if (again) {
    keys.set(databasePath, reread);
    return again;
  }
  // A rotation that committed but stopped before renaming its key into place (db/rotate-key.ts).
  const next = pendingNextKey(databasePath);
  const finished = next && openWith(next, stored, aad);
  if (finished) {
    promoteNextKey(databasePath);
    keys.set(databasePath, next);
    return finished;
  }
  throw new SecretsKeyError(
    `The secrets of ${databasePath} cannot be decrypted with the key from ${keySourceOf(databasePath)}: it is not the key they were encrypted with. ` +
      "Put the right key back (see /docs/operations, \"The secrets key\"); if it is lost, webhook secrets must be re-issued and outstanding links are invalid.",
  );
}

export function openText(databasePath: string, stored: string, aad: string): string {
  if (!isSealedText(stored)) return stored;
  return openBlob(databasePath, Buffer.from(stored.slice(TEXT_PREFIX.length), "base64"), aad).toString("utf8");
}

/** The blob inside a sealed text column (for a rotation). */
export function textBlob(stored: string): Buffer {
  return Buffer.from(stored.slice(TEXT_PREFIX.length), "base64");
}

export function blobText(sealed: Buffer): string {
  return TEXT_PREFIX + sealed.toString("base64");
}

/** Where each secret is stored: the aad it is sealed with. */
export const appSecretAad = (name: string) => `app_secrets:${name}`;
export const endpointSecretAad = (id: string) => `webhook_endpoints:${id}`;
