import "server-only";
import { inArray } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys, waitlists } from "@/db/schema";
import type { AuditAction, AuditRow } from "./log";

/** What an audit row's target is, by its action: a waitlist's id, a key's id, the keyed hash of an erased address, a webhook endpoint's id or a delivery's. */
export type AuditTargetKind = "waitlist" | "key" | "address" | "webhook" | "delivery";

export const AUDIT_TARGET_KIND: Record<AuditAction, AuditTargetKind> = {
  "waitlist.create": "waitlist",
  "waitlist.update": "waitlist",
  "waitlist.delete": "waitlist",
  "signups.import": "waitlist",
  "signups.invite": "waitlist",
  "signups.reject": "waitlist",
  "signups.withdraw": "waitlist",
  "signups.restore": "waitlist",
  "signups.complete": "waitlist",
  "signup.erase": "address",
  "key.create": "key",
  "key.revoke": "key",
  "webhook.create": "webhook",
  "webhook.update": "webhook",
  "webhook.enable": "webhook",
  "webhook.disable": "webhook",
  "webhook.remove": "webhook",
  "webhook.rotate_secret": "webhook",
  "delivery.resend": "delivery",
  "waitlist.invitation_email": "waitlist",
  "waitlist.join_settings": "waitlist",
  "waitlist.ranking": "waitlist",
  "waitlist.milestones": "waitlist",
  "signup.update": "waitlist",
  "signups.flag_approve": "waitlist",
  "signups.flag_discount": "waitlist",
  "waitlist.invitation_email_test": "waitlist",
  "signups.expire": "waitlist",
  "signups.remind": "waitlist",
  "signups.scheduled_invite": "waitlist",
  "waitlist.schedules": "waitlist",
};

/** Names of the waitlists and keys that the rows (and their actors) name and that still exist, by id. */
export async function auditTargetNames(rows: readonly AuditRow[], db: AppDatabase = getDb()): Promise<{ waitlists: Map<string, string>; keys: Map<string, string> }> {
  const ids = (kind: AuditTargetKind) => [...new Set(rows.filter((row) => AUDIT_TARGET_KIND[row.action] === kind).map((row) => row.target))];
  const keyIds = [...new Set([...ids("key"), ...rows.flatMap((row) => (row.actorKeyId ? [row.actorKeyId] : []))])];
  const waitlistIds = ids("waitlist");
  return {
    waitlists: new Map(waitlistIds.length === 0 ? [] : (await db.select({ id: waitlists.id, name: waitlists.name }).from(waitlists).where(inArray(waitlists.id, waitlistIds)).all()).map((row) => [row.id, row.name])),
    keys: new Map(keyIds.length === 0 ? [] : (await db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(inArray(apiKeys.id, keyIds)).all()).map((row) => [row.id, row.name])),
  };
}
