import { getDb, type AppDatabase } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { transaction } from "@/lib/store/transaction";
import { createApiKey, getApiKey, revokeApiKey, type NewApiKey } from "./queries";
import { recordAudit, type AuditActor } from "../audit/log";

// Key writes as the dashboard and the CLI make them: each with its audit row, in one transaction.

/** Creates a key (returned in clear text, this once) and records who did. */
export async function issueApiKey(input: NewApiKey, actor: AuditActor, db: AppDatabase = getDb()) {
  return await transaction(db, async () => {
    const created = await createApiKey(input, db);
    const expires = created.expires_at ? `expires ${created.expires_at}` : "never expires";
    await recordAudit({ actor, action: "key.create", target: created.id, summary: `created key "${created.name}" ${created.prefix}… (${created.roles.join(", ")}; ${expires})` }, db);
    return created;
  });
}

/**
 * Revokes a key by id and records who did; revoking a revoked key changes nothing and records
 * nothing (`revoked: false`). An unknown id is a not_found error.
 */
export async function revokeApiKeyAs(id: string, actor: AuditActor, db: AppDatabase = getDb()) {
  return await transaction(db, async () => {
    const key = await getApiKey(id, db);
    if (!key) throw new AppError("not_found", `No API key has the id ${id}`);
    if (key.revokedAt) return { key, revoked: false };
    await revokeApiKey(id, db);
    await recordAudit({ actor, action: "key.revoke", target: key.id, summary: `revoked key "${key.name}" ${key.prefix}…` }, db);
    return { key, revoked: true };
  });
}
