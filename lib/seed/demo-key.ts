import { and, inArray, isNull } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { ADMIN_ROLE, createApiKey, VIEW_ROLE, type Role } from "@/lib/domain/keys/queries";
import { CLI_ACTOR, recordAudit } from "@/lib/domain/audit/log";

/** The keys `npm run demo` issues, by name: one to act in the dashboard, one to read the API. Each run replaces both. */
export const DEMO_KEYS = {
  admin: { name: "demo admin", role: ADMIN_ROLE },
  view: { name: "demo", role: VIEW_ROLE },
} as const satisfies Record<string, { name: string; role: Role }>;

/**
 * Issues a fresh admin key and a fresh view key (no expiry) and revokes every earlier unrevoked key
 * with either name, in one transaction, so re-running the demo leaves exactly one of each working.
 * Returns the new keys and the prefixes of those revoked (only hashes are stored: their keys are gone).
 * Each key written is audited with the actor cli.
 */
export function issueDemoKeys(db: AppDatabase = getDb()) {
  const names = Object.values(DEMO_KEYS).map((key) => key.name);
  return db.$client.transaction(() => {
    const revoked = db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(inArray(apiKeys.name, names), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix })
      .all();
    for (const old of revoked) recordAudit({ actor: CLI_ACTOR, action: "key.revoke", target: old.id, summary: `revoked key "${old.name}" ${old.prefix}… (npm run demo)` }, db);
    const issue = ({ name, role }: { name: string; role: Role }) => {
      const key = createApiKey({ name, roles: [role] }, db);
      recordAudit({ actor: CLI_ACTOR, action: "key.create", target: key.id, summary: `created key "${name}" ${key.prefix}… (${role}; never expires; npm run demo)` }, db);
      return key;
    };
    return { admin: issue(DEMO_KEYS.admin), view: issue(DEMO_KEYS.view), revoked };
  })();
}
