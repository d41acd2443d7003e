import "server-only";
import { getDb, type AppDatabase } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { DAY_MS } from "@/lib/core/time";
import { preparedOnce } from "@/lib/sqlite/statements";

// The first answers to /v1 writes sent with an Idempotency-Key (the `idempotent_requests` table),
// per API key, kept for a day: the same key with the same request gets that answer again, and
// nothing is written twice.

export const IDEMPOTENCY_WINDOW_MS = DAY_MS;

interface StoredAnswer {
  requestHash: string;
  status: number;
  body: string;
}

/** An answer to a write: its status and JSON body. */
export interface Answer {
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
function findAnswer(apiKeyId: string, key: string, db: AppDatabase = getDb(), now = Date.now()): StoredAnswer | undefined {
  return statements(db).find.get(apiKeyId, key, now - IDEMPOTENCY_WINDOW_MS);
}

/** Stores a first answer (inside the write's transaction, so the two commit together) and drops expired ones. */
function storeAnswer(apiKeyId: string, key: string, answer: StoredAnswer, db: AppDatabase = getDb(), now = Date.now()): void {
  const prepared = statements(db);
  prepared.expire.run(now - IDEMPOTENCY_WINDOW_MS);
  prepared.store.run(apiKeyId, key, answer.requestHash, answer.status, answer.body, now);
}

/** For an erasure: drops every stored answer that names the address (as a JSON string, any case). */
export function forgetAnswersNaming(address: string, db: AppDatabase): void {
  statements(db).forget.run(JSON.stringify(address.trim()).toLowerCase());
}

/**
 * `produce`'s answer, once per (API key, Idempotency-Key) within the window: in one transaction with
 * the write it makes, the answer is stored; the same key with the same request (`requestHash`) gets
 * it again without writing anything, the same key with another request is a 422. A write that
 * fails stores nothing, so it may be retried with the same key. Without a key, `produce` just runs.
 */
export function answerOnce(apiKeyId: string, key: string | undefined, requestHash: string, produce: () => Answer, db: AppDatabase = getDb()): Answer & { replayed: boolean } {
  if (key === undefined) return { ...produce(), replayed: false };
  return db.$client
    .transaction(() => {
      const stored = findAnswer(apiKeyId, key, db);
      if (stored) {
        if (stored.requestHash !== requestHash) {
          throw new AppError("unprocessable", `The Idempotency-Key "${key}" was used in the last 24 hours for another request: send a new key for a new request.`, "Idempotency-Key");
        }
        return { status: stored.status, body: stored.body, replayed: true };
      }
      const answer = produce();
      storeAnswer(apiKeyId, key, { requestHash, ...answer }, db);
      return { ...answer, replayed: false };
    })
    .immediate();
}
