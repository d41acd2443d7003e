import { createHash, randomBytes, randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys, type ApiKey } from "@/db/schema";

export type { ApiKey };
import { writeIfUnlocked } from "@/lib/sqlite/busy";
import { preparedOnce } from "@/lib/sqlite/statements";

export const ROLES = ["waitlist:view"] as const;
export type Role = (typeof ROLES)[number];
export const VIEW_ROLE: Role = "waitlist:view";

const KEY_PREFIX = "wl_";
// "wl_" + 43 base64url characters (32 random bytes).
const KEY_PATTERN = /^wl_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 6;
// last_used_at is a hint for operators, so it is written at most once a minute per key.
const LAST_USED_RESOLUTION_MS = 60_000;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function looksLikeApiKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

export interface NewApiKey {
  name: string;
  roles: readonly Role[];
  expiresAt?: Date | null;
}

/** Creates a key and returns it in clear text: the only time it is ever available. */
export function createApiKey(input: NewApiKey, db: AppDatabase = getDb()) {
  const key = generateApiKey();
  const row: ApiKey = {
    id: randomUUID(),
    name: input.name,
    prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
    keyHash: hashSecret(key),
    roles: [...new Set(input.roles)],
    createdAt: new Date(),
    lastUsedAt: null,
    expiresAt: input.expiresAt ?? null,
    revokedAt: null,
  };
  db.insert(apiKeys).values(row).run();
  return { ...toApiKeySummary(row), key };
}

export type ApiKeySummary = ReturnType<typeof toApiKeySummary>;

/** The public view of a key: never the key or its hash. */
export function toApiKeySummary(row: ApiKey) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    roles: row.roles,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export function listApiKeys(db: AppDatabase = getDb()): ApiKeySummary[] {
  return db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)).all().map(toApiKeySummary);
}

/** Marks a key revoked; returns false when no such key exists. Revoking twice keeps the first date. */
export function revokeApiKey(id: string, db: AppDatabase = getDb()): boolean {
  const row = db.select().from(apiKeys).where(eq(apiKeys.id, id)).get();
  if (!row) return false;
  if (!row.revokedAt) db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id)).run();
  return true;
}

export function isKeyActive(row: Pick<ApiKey, "revokedAt" | "expiresAt">, now = new Date()): boolean {
  return !row.revokedAt && (!row.expiresAt || row.expiresAt.getTime() > now.getTime());
}

export type KeyCheck =
  | { ok: true; key: ApiKey }
  | { ok: false; reason: "unauthenticated" }
  | { ok: false; reason: "forbidden"; key: ApiKey };

/** The key lookup of verifyApiKey, with the hash as a placeholder (the benchmark's baseline runs the same SQL). */
export function apiKeyByHashQuery(db: AppDatabase = getDb()) {
  return db.select().from(apiKeys).where(eq(apiKeys.keyHash, sql.placeholder("keyHash")));
}

/**
 * Finds an active key by the SHA-256 of the presented secret (so timing does not depend on
 * how much of a guess matches) and checks it carries `role`.
 */
export function verifyApiKey(presented: string | null | undefined, role: Role, db: AppDatabase = getDb()): KeyCheck {
  if (!presented || !looksLikeApiKey(presented)) return { ok: false, reason: "unauthenticated" };
  const row = preparedOnce(db, "apiKeyByHash", () => apiKeyByHashQuery(db).prepare()).get({ keyHash: hashSecret(presented) });
  const now = new Date();
  if (!row || !isKeyActive(row, now)) return { ok: false, reason: "unauthenticated" };
  touchLastUsed(row, now, db);
  if (!row.roles.includes(role)) return { ok: false, reason: "forbidden", key: row };
  return { ok: true, key: row };
}

function touchLastUsed(row: ApiKey, now: Date, db: AppDatabase) {
  if (row.lastUsedAt && now.getTime() - row.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  // A hint is not worth waiting for: while another process holds the write lock (a long import),
  // the write is skipped, and a later request makes it.
  writeIfUnlocked(db, () => db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id)).run());
}
