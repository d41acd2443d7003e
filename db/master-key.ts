import { randomBytes } from "node:crypto";
import { existsSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { secretsKeyFromEnv } from "@/lib/core/env";

// The master key of a database's secrets (./sealed-secret.ts): it lives outside the database, so a
// copy of the file (a backup) holds the secrets only as ciphertext. SECRETS_KEY when set; else a
// key file beside the database, `<DATABASE_PATH>.key`, 32 random bytes made on first use, mode 0600.
// Every process that opens the file (the server's workers, their threads, the CLI) finds the same
// key: the same variable, or the same file beside the same path.

export const KEY_LENGTH = 32;

/** Whether the database lives on a server (postgres://…), not in a file. */
const isServerAddress = (location: string) => location.includes("://");

/** Where the key of the database at `databasePath` is kept when SECRETS_KEY is unset. */
export function keyFileOf(databasePath: string): string {
  return `${databasePath}.key`;
}

/** The key file a rotation writes before its commit and renames over the key file after (db/rotate-key.ts). */
export function nextKeyFileOf(databasePath: string): string {
  return `${databasePath}.key.next`;
}

/** Where the key comes from, for messages: "SECRETS_KEY" or the key file's path. */
export function keySourceOf(databasePath: string): string {
  return secretsKeyFromEnv() ? "SECRETS_KEY" : keyFileOf(databasePath);
}

const memoryKeys = new Map<string, Buffer>();

function readKeyFile(path: string): Buffer | undefined {
  let key: Buffer;
  try {
    key = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`The secrets key file ${path} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  if (key.length !== KEY_LENGTH) throw new Error(`The secrets key file ${path} holds ${key.length} bytes, not ${KEY_LENGTH}: it is not a key this app wrote.`);
  return key;
}

/**
 * Writes `key` to `path` (mode 0600) unless a key is there already, atomically: written to a
 * temporary file, then hard-linked into place, so a process racing to make the first key never
 * reads half of one, and exactly one key wins. Returns the key at `path`.
 */
export function writeKeyFileOnce(path: string, key: Buffer): Buffer {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, key, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return readKeyFile(path)!;
}

/**
 * The master key of the database at `databasePath`. `create`: make the key file when there is none
 * (only when the database holds no encrypted secret yet: a missing key is otherwise lost, and a new
 * one would not open them). Returns undefined when there is no key and `create` is false.
 */
export function masterKeyOf(databasePath: string, create: boolean): Buffer | undefined {
  const fromEnv = secretsKeyFromEnv();
  if (fromEnv) return fromEnv;
  // A database server has no folder of ours to keep a key file in, and several app servers share it.
  if (isServerAddress(databasePath)) throw new Error(`${databasePath}: a PostgreSQL database keeps its secrets sealed with SECRETS_KEY: set it, the same on every app server.`);
  if (databasePath === ":memory:" || databasePath === "") {
    // A database that lives only in this process: its key may too.
    if (!memoryKeys.has(databasePath) && create) memoryKeys.set(databasePath, randomBytes(KEY_LENGTH));
    return memoryKeys.get(databasePath);
  }
  const path = keyFileOf(databasePath);
  return readKeyFile(path) ?? (create ? writeKeyFileOnce(path, randomBytes(KEY_LENGTH)) : undefined);
}

/**
 * Whether the database has a key to open its secrets with: SECRETS_KEY, or the key file (or a
 * rotation's next one) there. Not read: a process that only reads signups (the CLI as another user)
 * opens the database without needing to read it.
 */
export function hasMasterKey(databasePath: string): boolean {
  if (secretsKeyFromEnv() || databasePath === ":memory:" || databasePath === "") return true;
  if (isServerAddress(databasePath)) return false;
  return existsSync(keyFileOf(databasePath)) || existsSync(nextKeyFileOf(databasePath));
}

/** The key a rotation left in `<path>.key.next` when it stopped between its commit and its rename, or undefined. */
export function pendingNextKey(databasePath: string): Buffer | undefined {
  if (secretsKeyFromEnv() || databasePath === ":memory:" || databasePath === "") return undefined;
  return readKeyFile(nextKeyFileOf(databasePath));
}

/** Makes the rotation's next key the key (after its commit). */
export function promoteNextKey(databasePath: string): void {
  try {
    renameSync(nextKeyFileOf(databasePath), keyFileOf(databasePath));
  } catch (error) {
    // Another process (the rotation, or a reader that found it first) renamed it already.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
