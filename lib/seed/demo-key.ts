import { and, inArray, isNull } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { ADMIN_ROLE, createApiKey, toApiKeySummary, verifyApiKey, VIEW_ROLE, type Role } from "@/lib/domain/keys/queries";
import { CLI_ACTOR, recordAudit } from "@/lib/domain/audit/log";
import { writeTransaction } from "@/lib/store/transaction";

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
export async function issueDemoKeys(db: AppDatabase = getDb()) {
  const names = Object.values(DEMO_KEYS).map((key) => key.name);
  return await writeTransaction(db, async () => {
    const revoked = await db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(inArray(apiKeys.name, names), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix })
      .all();
    for (const old of revoked) await recordAudit({ actor: CLI_ACTOR, action: "key.revoke", target: old.id, summary: `revoked key "${old.name}" ${old.prefix}… (npm run demo)` }, db);
    const issue = async ({ name, role }: { name: string; role: Role }) => {
      const key = await createApiKey({ name, roles: [role] }, db);
      await recordAudit({ actor: CLI_ACTOR, action: "key.create", target: key.id, summary: `created key "${name}" ${key.prefix}… (${role}; never expires; npm run demo)` }, db);
      return key;
    };
    return { admin: await issue(DEMO_KEYS.admin), view: await issue(DEMO_KEYS.view), revoked };
  });
}

/** The demo keys a previous run printed (kept beside the database by `npm run demo`), if any. */
export interface PreviousDemoKeys {
  admin?: string;
  view?: string;
}

/**
 * The previous run's keys when both still work as the demo keys (active, with their names and
 * roles), so that a reused database keeps its keys and a signed-in dashboard stays signed in;
 * otherwise new ones from issueDemoKeys (which revokes the previous ones). `kept` says which.
 */
export async function keepOrIssueDemoKeys(previous: PreviousDemoKeys | undefined, db: AppDatabase = getDb()) {
  const still = async (key: string | undefined, { name, role }: { name: string; role: Role }) => {
    const check = await verifyApiKey(key, role, db);
    return check.ok && check.key.name === name && check.key.roles.join() === role ? { ...toApiKeySummary(check.key), key: key! } : undefined;
  };
  const admin = await still(previous?.admin, DEMO_KEYS.admin);
  const view = await still(previous?.view, DEMO_KEYS.view);
  if (admin && view) return { kept: true as const, admin, view, revoked: [] };
  return { kept: false as const, ...await issueDemoKeys(db) };
}
