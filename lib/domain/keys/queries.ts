import { hash, randomBytes, randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys, type ApiKey } from "@/db/schema";
import { MINUTE_MS } from "@/lib/core/time";
import { skippableWrite } from "@/lib/sqlite/busy";
import { preparedOnce } from "@/lib/store/statements";

export type { ApiKey };

export const ROLES = ["waitlist:view", "waitlist:admin", "waitlist:join", "waitlist:redeem"] as const;
export type Role = (typeof ROLES)[number];
/** Read the API, browse the dashboard. */
export const VIEW_ROLE: Role = "waitlist:view";
/** Everything view and join can do, plus the dashboard's write actions. */
export const ADMIN_ROLE: Role = "waitlist:admin";
/** Put people on a waitlist (POST /v1/waitlist/{id}/signup) and nothing else: for a product's own backend. */
export const JOIN_ROLE: Role = "waitlist:join";
/** Look at and redeem invite tokens (GET /v1/invitations/{token}, its redeem) and complete signups: for a product's sign-up. */
export const REDEEM_ROLE: Role = "waitlist:redeem";

// The roles each role includes besides itself.
const INCLUDED_ROLES: Record<Role, readonly Role[]> = { "waitlist:view": [], "waitlist:admin": [VIEW_ROLE, JOIN_ROLE, REDEEM_ROLE], "waitlist:join": [], "waitlist:redeem": [] };

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** Whether keys holding `roles` may do what `role` allows: an admin key may do anything a view key may. */
export function rolesGrant(roles: readonly string[], role: Role): boolean {
  return roles.some((held) => held === role || (isRole(held) && INCLUDED_ROLES[held].includes(role)));
}

const KEY_PREFIX = "wl_";
// "wl_" + 43 base64url characters (32 random bytes).
const KEY_PATTERN = /^wl_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 6;
// last_used_at is a hint for operators, so it is written at most once a minute per key.
const LAST_USED_RESOLUTION_MS = MINUTE_MS;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return hash("sha256", secret, "hex");
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
export async function createApiKey(input: NewApiKey, db: AppDatabase = getDb()) {
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
  const insert = preparedOnce(db, "apiKeys.insert", () =>
    db
      .insert(apiKeys)
      .values({
        id: sql.placeholder("id"),
        name: sql.placeholder("name"),
        prefix: sql.placeholder("prefix"),
        keyHash: sql.placeholder("keyHash"),
        roles: sql.placeholder("roles"),
        createdAt: sql.placeholder("createdAt"),
        // A driver value (epoch ms or null): the column's Date encoder cannot take null.
        expiresAt: sql`${sql.placeholder("expiresAt")}`,
      })
      .prepare(),
  );
  await insert.run({ ...row, expiresAt: row.expiresAt?.getTime() ?? null });
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

export function isKeyActive(row: Pick<ApiKey, "revokedAt" | "expiresAt">, now = new Date()): boolean {
  return !row.revokedAt && (!row.expiresAt || row.expiresAt.getTime() > now.getTime());
}

export type KeyStatus = "active" | "revoked" | "expired";

export function keyStatus(row: Pick<ApiKey, "revokedAt" | "expiresAt">, now = new Date()): KeyStatus {
  if (row.revokedAt) return "revoked";
  return isKeyActive(row, now) ? "active" : "expired";
}

/** Every key, oldest first, with its status (never the key or its hash). */
export async function listApiKeys(db: AppDatabase = getDb(), now = new Date()): Promise<(ApiKeySummary & { status: KeyStatus })[]> {
  const all = preparedOnce(db, "apiKeys.all", () => db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)).prepare());
  return (await all.all()).map((row) => ({ ...toApiKeySummary(row), status: keyStatus(row, now) }));
}

function keyById(db: AppDatabase) {
  return preparedOnce(db, "apiKeys.byId", () => db.select().from(apiKeys).where(eq(apiKeys.id, sql.placeholder("id"))).prepare());
}

/** The key with this id, whatever its state. */
export async function getApiKey(id: string, db: AppDatabase = getDb()): Promise<ApiKey | undefined> {
  return await keyById(db).get({ id });
}

/** Marks a key revoked; returns false when no such key exists. Revoking twice keeps the first date. */
export async function revokeApiKey(id: string, db: AppDatabase = getDb()): Promise<boolean> {
  const row = await keyById(db).get({ id });
  if (!row) return false;
  const revoke = preparedOnce(db, "apiKeys.revoke", () =>
    db.update(apiKeys).set({ revokedAt: sql`${sql.placeholder("revokedAt")}` }).where(eq(apiKeys.id, sql.placeholder("id"))).prepare(),
  );
  if (!row.revokedAt) await revoke.run({ id, revokedAt: Date.now() });
  return true;
}

export type KeyCheck =
  | { ok: true; key: ApiKey }
  | { ok: false; reason: "unauthenticated" }
  | { ok: false; reason: "forbidden"; key: ApiKey };

/** The key whose SHA-256 is `keyHash`, whatever its state. */
export async function findApiKeyByHash(keyHash: string, db: AppDatabase = getDb()): Promise<ApiKey | undefined> {
  const byHash = preparedOnce(db, "apiKeys.byHash", () => db.select().from(apiKeys).where(eq(apiKeys.keyHash, sql.placeholder("keyHash"))).prepare());
  return await byHash.get({ keyHash });
}

/**
 * Finds an active key by the SHA-256 of the presented secret (so timing does not depend on
 * how much of a guess matches) and checks it carries `role`.
 */
export async function verifyApiKey(presented: string | null | undefined, role: Role, db: AppDatabase = getDb()): Promise<KeyCheck> {
  if (!presented || !looksLikeApiKey(presented)) return { ok: false, reason: "unauthenticated" };
  const row = await findApiKeyByHash(hashSecret(presented), db);
  const now = new Date();
  if (!row || !isKeyActive(row, now)) return { ok: false, reason: "unauthenticated" };
  await touchLastUsed(row, now, db);
  if (!rolesGrant(row.roles, role)) return { ok: false, reason: "forbidden", key: row };
  return { ok: true, key: row };
}

async function touchLastUsed(row: ApiKey, now: Date, db: AppDatabase) {
  if (row.lastUsedAt && now.getTime() - row.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  // A hint is neither worth waiting for nor worth failing a read: while the database cannot be written
  // (another process's lock during a long import, a full disk, a read-only file), it is skipped, and a
  // later request makes it.
  const touch = preparedOnce(db, "apiKeys.touch", () =>
    db.update(apiKeys).set({ lastUsedAt: sql`${sql.placeholder("lastUsedAt")}` }).where(eq(apiKeys.id, sql.placeholder("id"))).prepare(),
  );
  await skippableWrite(db, async () => {
    await touch.run({ id: row.id, lastUsedAt: now.getTime() });
  });
}
