import "server-only";
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { and, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { appSecrets, auditLog } from "@/db/schema";
import { appSecretAad, openBlob } from "@/db/sealed-secret";
import { connectionOf, databaseLocation } from "@/lib/store/connection";
import { preparedOnce } from "@/lib/store/statements";

export const AUDIT_ACTIONS = ["waitlist.create", "waitlist.update", "waitlist.delete", "signup.erase", "signups.import", "signups.invite", "signups.reject", "signups.withdraw", "signups.restore", "signups.complete", "key.create", "key.revoke", "webhook.create", "webhook.update", "webhook.enable", "webhook.disable", "webhook.remove", "webhook.rotate_secret", "delivery.resend", "waitlist.invitation_email", "waitlist.join_settings", "waitlist.ranking", "waitlist.milestones", "signup.update", "signups.flag_approve", "signups.flag_discount", "signups.expire", "signups.remind", "signups.scheduled_invite", "waitlist.schedules", "waitlist.invitation_email_test"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const auditActionSchema = z.enum(AUDIT_ACTIONS, { error: (issue) => `unknown action ${JSON.stringify(issue.input)} (known actions: ${AUDIT_ACTIONS.join(", ")})` });

/** Who made a write: the key of a dashboard session, the operator's CLI (which needs no key), or a person from their own page. */
export type AuditActor = { keyId: string; keyName: string } | typeof CLI_ACTOR | typeof PERSON_ACTOR | typeof SCHEDULER_ACTOR;

export const CLI_ACTOR = "cli";
/** A signup's own writes from its page (/join/{id}/me): named by the row's target and summary, never by an address. */
export const PERSON_ACTOR = "person";
/** The scheduler's own writes (lib/domain/scheduler): expiries, reminders and scheduled invitations. */
export const SCHEDULER_ACTOR = "scheduler";

export interface AuditRow {
  id: number;
  at: Date;
  actorKeyId: string | null;
  actor: string;
  action: AuditAction;
  target: string;
  summary: string;
}

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  /** What was written: an id, a key prefix, or auditHash(address) for an erasure. */
  target: string;
  /** A short sentence for people ("erased 3 signups from 2 waitlists"): never a key, a token or an erased address. */
  summary: string;
}

/**
 * Appends one row. Call it inside the transaction of the write it records, so that the write and
 * its row commit (or roll back) together.
 */
export async function recordAudit(entry: AuditEntry, db: AppDatabase = getDb()): Promise<void> {
  const insert = preparedOnce(db, "audit.insert", () =>
    db
      .insert(auditLog)
      .values({
        at: sql.placeholder("at"),
        actorKeyId: sql`${sql.placeholder("actorKeyId")}`,
        actor: sql.placeholder("actor"),
        action: sql.placeholder("action"),
        target: sql.placeholder("target"),
        summary: sql.placeholder("summary"),
      })
      .prepare(),
  );
  const { actor } = entry;
  await insert.run({
    at: new Date(),
    actorKeyId: typeof actor === "string" ? null : actor.keyId,
    actor: typeof actor === "string" ? actor : actor.keyName,
    action: entry.action,
    target: entry.target,
    summary: entry.summary,
  });
}

/**
 * A keyed hash (HMAC-SHA256, hex) of `text` in lower case, with this database's own secret: the
 * audit log names an erased address by it, so the same address always gives the same target, yet
 * the log alone (without the secret) cannot be checked against a list of addresses. The secret is
 * stored encrypted (db/sealed-secret.ts): a copy of the database without its key cannot either.
 */
export async function auditHash(text: string, db: AppDatabase = getDb()): Promise<string> {
  return createHmac("sha256", await auditHashKey(db)).update(text.toLowerCase(), "utf8").digest("hex");
}

// The key, opened once per connection: it never changes once migration 0005 made it (a key rotation
// seals the same key again). Reading and opening it took 40 µs, twice per join (the limits' keys).
const openedAuditKeys = new WeakMap<object, KeyObject>();

async function auditHashKey(db: AppDatabase): Promise<KeyObject> {
  let key = openedAuditKeys.get(connectionOf(db));
  if (key) return key;
  const secret = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, "audit_hash_key")).get();
  if (!secret) throw new Error("app_secrets has no audit_hash_key: the database was not migrated (migration 0005)");
  key = createSecretKey(openBlob(databaseLocation(db), secret.value, appSecretAad("audit_hash_key")));
  openedAuditKeys.set(connectionOf(db), key);
  return key;
}

export interface AuditQuery {
  action?: AuditAction;
  /** A key's name or id, or "cli". */
  actor?: string;
  limit: number;
  /** Only rows older than this row id (the next page after a page ending at it). */
  before?: number;
}

export const MAX_AUDIT_PAGE = 1000;
/** The longest actor filter: a key's name, id or `cli`. */
export const MAX_AUDIT_ACTOR = 200;

/** The filters and page of `audit list` and the dashboard's /audit page. */
export const auditQuerySchema = z.object({
  action: auditActionSchema.optional(),
  actor: z.string().trim().min(1).max(MAX_AUDIT_ACTOR).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).describe(`a whole number from 1 to ${MAX_AUDIT_PAGE}`),
  before: z.coerce.number().int().min(1).optional().describe("a row id"),
});

/** Rows newest first (the id follows the order of the writes). */
export async function listAudit(options: AuditQuery, db: AppDatabase = getDb()): Promise<AuditRow[]> {
  const shape = { action: options.action !== undefined, actor: options.actor !== undefined, before: options.before !== undefined };
  const list = preparedOnce(db, `audit.list.${shape.action}.${shape.actor}.${shape.before}`, () => {
    const conditions: SQL[] = [];
    if (shape.action) conditions.push(eq(auditLog.action, sql.placeholder("action")));
    if (shape.actor) conditions.push(or(eq(auditLog.actor, sql.placeholder("actor")), eq(auditLog.actorKeyId, sql.placeholder("actor")))!);
    if (shape.before) conditions.push(lt(auditLog.id, sql.placeholder("before")));
    return db
      .select()
      .from(auditLog)
      .where(and(...conditions))
      .orderBy(desc(auditLog.id))
      .limit(sql.placeholder("limit"))
      .prepare();
  });
  const rows = await list.all({ action: options.action, actor: options.actor, before: options.before, limit: options.limit });
  return rows.map((row) => ({ ...row, action: row.action as AuditAction }));
}
