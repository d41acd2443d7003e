import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { preparedOnce } from "@/lib/sqlite/statements";

// The first answers to /v1 writes sent with an Idempotency-Key (the `idempotent_requests` table),
// per API key, kept for a day: the same key with the same request gets that answer again, and
// nothing is written twice.

export const IDEMPOTENCY_WINDOW_MS = DAY_MS;

export interface StoredAnswer {
  requestHash: string;
  status: number;
  body: string;
}

function statements(db: AppDatabase) {
  return preparedOnce(db, "idempotency.statements", () => ({
    find: db.$client.prepare<[string, string, number], { requestHash: string; status: number; body: string }>(
      "SELECT request_hash AS requestHash, status, body FROM idempotent_requests WHERE api_key_id = ? AND key = ? AND created_at > ?",
    ),
    store: db.$client.prepare<[string, string, string, number, string, number]>(
      "INSERT OR REPLACE INTO idempotent_requests (api_key_id, key, request_hash, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    expire: db.$client.prepare<[number]>("DELETE FROM idempotent_requests WHERE created_at <= ?"),
    forget: db.$client.prepare<[string]>("DELETE FROM idempotent_requests WHERE instr(lower(body), ?) > 0"),
  }));
}

/** The stored answer of this key within the window, if any. */
export function findAnswer(apiKeyId: string, key: string, db: AppDatabase = getDb(), now = Date.now()): StoredAnswer | undefined {
  return statements(db).find.get(apiKeyId, key, now - IDEMPOTENCY_WINDOW_MS);
}

/** Stores a first answer (inside the write's transaction, so the two commit together) and drops expired ones. */
export function storeAnswer(apiKeyId: string, key: string, answer: StoredAnswer, db: AppDatabase = getDb(), now = Date.now()): void {
  const prepared = statements(db);
  prepared.expire.run(now - IDEMPOTENCY_WINDOW_MS);
  prepared.store.run(apiKeyId, key, answer.requestHash, answer.status, answer.body, now);
}

/** For an erasure: drops every stored answer that names the address (as a JSON string, any case). */
export function forgetAnswersNaming(address: string, db: AppDatabase): void {
  statements(db).forget.run(JSON.stringify(address.trim()).toLowerCase());
}
