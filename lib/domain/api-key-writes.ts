import { getDb, type AppDatabase } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { createApiKey, getApiKey, revokeApiKey, type NewApiKey } from "./api-keys";
import { recordAudit, type AuditActor } from "./audit/log";
import { holdNewKey } from "./new-key-reveals";

// Key writes as the dashboard and the CLI make them: each with its audit row, in one transaction.

/** Creates a key (returned in clear text, this once) and records who did. */
export function issueApiKey(input: NewApiKey, actor: AuditActor, db: AppDatabase = getDb()) {
  return db.$client.transaction(() => {
    const created = createApiKey(input, db);
    const expires = created.expires_at ? `expires ${created.expires_at}` : "never expires";
    recordAudit({ actor, action: "key.create", target: created.id, summary: `created key "${created.name}" ${created.prefix}… (${created.roles.join(", ")}; ${expires})` }, db);
    return created;
  })();
}

/**
 * issueApiKey for the dashboard: the new key is also held, sealed, for the session of `sessionKeyId`
 * to be shown once (new-key-reveals.ts), in the same transaction, so that a key is never created
 * without the page that shows it. Returns the key's summary and the ticket for the redirect's URL.
 */
export function issueApiKeyToReveal(input: NewApiKey, actor: AuditActor, sessionKeyId: string, db: AppDatabase = getDb()) {
  return db.$client.transaction(() => {
    const created = issueApiKey(input, actor, db);
    const ticket = holdNewKey({ id: created.id, name: created.name, key: created.key }, sessionKeyId, db);
    return { id: created.id, ticket };
  })();
}

/**
 * Revokes a key by id and records who did; revoking a revoked key changes nothing and records
 * nothing (`revoked: false`). An unknown id is a not_found error.
 */
export function revokeApiKeyAs(id: string, actor: AuditActor, db: AppDatabase = getDb()) {
  return db.$client.transaction(() => {
    const key = getApiKey(id, db);
    if (!key) throw new AppError("not_found", `No API key has the id ${id}`);
    if (key.revokedAt) return { key, revoked: false };
    revokeApiKey(id, db);
    recordAudit({ actor, action: "key.revoke", target: key.id, summary: `revoked key "${key.name}" ${key.prefix}…` }, db);
    return { key, revoked: true };
  })();
}
