import "server-only";
import { inArray } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys, waitlists } from "@/db/schema";
import type { AuditAction, AuditRow } from "./log";

/** What an audit row's target is, by its action: a waitlist's id, a key's id, or the keyed hash of an erased address. */
export type AuditTargetKind = "waitlist" | "key" | "address";

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
};

/** Names of the waitlists and keys that the rows (and their actors) name and that still exist, by id. */
export function auditTargetNames(rows: readonly AuditRow[], db: AppDatabase = getDb()): { waitlists: Map<string, string>; keys: Map<string, string> } {
  const ids = (kind: AuditTargetKind) => [...new Set(rows.filter((row) => AUDIT_TARGET_KIND[row.action] === kind).map((row) => row.target))];
  const keyIds = [...new Set([...ids("key"), ...rows.flatMap((row) => (row.actorKeyId ? [row.actorKeyId] : []))])];
  const waitlistIds = ids("waitlist");
  return {
    waitlists: new Map(waitlistIds.length === 0 ? [] : db.select({ id: waitlists.id, name: waitlists.name }).from(waitlists).where(inArray(waitlists.id, waitlistIds)).all().map((row) => [row.id, row.name])),
    keys: new Map(keyIds.length === 0 ? [] : db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(inArray(apiKeys.id, keyIds)).all().map((row) => [row.id, row.name])),
  };
}
