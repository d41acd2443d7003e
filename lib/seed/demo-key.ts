import { and, eq, isNull } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { createApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { CLI_ACTOR, recordAudit } from "@/lib/domain/audit/log";

/** The name of the key `npm run demo` issues; each run replaces the previous one. */
export const DEMO_KEY_NAME = "demo";

/**
 * Issues a fresh demo key (role waitlist:view, no expiry) and revokes every earlier unrevoked key
 * named `demo`, in one transaction, so re-running the demo leaves exactly one demo key working.
 * Returns the new key and the prefixes of those revoked (only hashes are stored: their keys are gone).
 * Each key written is audited with the actor cli.
 */
export function issueDemoKey(db: AppDatabase = getDb()) {
  return db.$client.transaction(() => {
    const revoked = db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.name, DEMO_KEY_NAME), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, prefix: apiKeys.prefix })
      .all();
    for (const old of revoked) recordAudit({ actor: CLI_ACTOR, action: "key.revoke", target: old.id, summary: `revoked key "${DEMO_KEY_NAME}" ${old.prefix}… (npm run demo)` }, db);
    const key = createApiKey({ name: DEMO_KEY_NAME, roles: [VIEW_ROLE] }, db);
    recordAudit({ actor: CLI_ACTOR, action: "key.create", target: key.id, summary: `created key "${DEMO_KEY_NAME}" ${key.prefix}… (${VIEW_ROLE}; never expires; npm run demo)` }, db);
    return { key, revoked };
  })();
}
