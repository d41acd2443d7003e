import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { DAY_MS } from "@/lib/core/time";
import { preparedSql } from "@/lib/store/statements";
import { writeTransaction } from "@/lib/store/transaction";

// The first answers to writes sent with an Idempotency-Key (the `idempotent_requests` table), per
// API key, kept for a day: the same key with the same request gets that answer again, and nothing is
// written twice. What an answer is belongs to the transport (/v1: an HTTP status and a JSON body):
// it records its answer here through `record`, and gets the record back on a replay.

export const IDEMPOTENCY_WINDOW_MS = DAY_MS;

/** A transport's first answer as it keeps it to give it again byte for byte (for /v1: the status code and the body). */
export interface RecordedAnswer {
  code: number;
  body: string;
}

/** How a transport records its answer to a write's value (called in the write's transaction). */
export type AnswerRecorder<Value> = (value: Value) => RecordedAnswer;

/** Which first answer a write may replay: the API key, its Idempotency-Key and the hash of the request sent with it. */
export interface IdempotencyScope {
  apiKeyId: string;
  key: string;
  requestHash: string;
}

/** A transport's answer to a write: recorded now, or replayed from the first request with the same key. */
export interface RecordedOutcome {
  replayed: boolean;
  answer: RecordedAnswer;
}

interface StoredAnswer extends RecordedAnswer {
  requestHash: string;
}

const placeholder = sql.placeholder;

/** The stored answer of this key within the window, if any. */
async function findAnswer(scope: IdempotencyScope, db: AppDatabase, now = Date.now()): Promise<StoredAnswer | undefined> {
  return await preparedSql<StoredAnswer>(
    db,
    "idempotency.find",
    () => sql`SELECT request_hash AS requestHash, status AS code, body FROM idempotent_requests WHERE api_key_id = ${placeholder("apiKeyId")} AND key = ${placeholder("key")} AND created_at > ${placeholder("since")}`,
  ).get({ apiKeyId: scope.apiKeyId, key: scope.key, since: now - IDEMPOTENCY_WINDOW_MS });
}

/** Stores a first answer (inside the write's transaction, so the two commit together) and drops expired ones. */
export async function storeAnswer(scope: IdempotencyScope, answer: RecordedAnswer, db: AppDatabase, now = Date.now()): Promise<void> {
  await preparedSql(db, "idempotency.expire", () => sql`DELETE FROM idempotent_requests WHERE created_at <= ${placeholder("expired")}`).run({ expired: now - IDEMPOTENCY_WINDOW_MS });
  await preparedSql(
    db,
    "idempotency.store",
    (d) =>
      d.insertOrReplace(
        "idempotent_requests",
        ["api_key_id", "key", "request_hash", "status", "body", "created_at"],
        ["api_key_id", "key"],
        sql`${placeholder("apiKeyId")}, ${placeholder("key")}, ${placeholder("requestHash")}, ${placeholder("code")}, ${placeholder("body")}, ${placeholder("at")}`,
      ),
  ).run({ ...scope, code: answer.code, body: answer.body, at: now });
}

/** For an erasure: drops every stored answer that names the address (as a JSON string, any case). */
export async function forgetAnswersNaming(address: string, db: AppDatabase): Promise<void> {
  await preparedSql(db, "idempotency.forget", (d) => sql`DELETE FROM idempotent_requests WHERE ${d.holds(sql`lower(body)`, placeholder("text"))}`).run({ text: JSON.stringify(address.trim()).toLowerCase() });
}

/**
 * The first answer stored for the scope's key within the window, to give again (replayed); undefined
 * when there is none. The same key with another request is refused as unprocessable.
 */
export async function storedAnswer(scope: IdempotencyScope, db: AppDatabase, now = Date.now()): Promise<RecordedOutcome | undefined> {
  const stored = await findAnswer(scope, db, now);
  if (!stored) return undefined;
  if (stored.requestHash !== scope.requestHash) {
    throw new AppError("unprocessable", `The Idempotency-Key "${scope.key}" was used in the last 24 hours for another request: send a new key for a new request.`, "Idempotency-Key");
  }
  return { replayed: true, answer: { code: stored.code, body: stored.body } };
}

/**
 * The transport's answer (`record`) to `produce`'s value, once per (API key, Idempotency-Key) within
 * the window: in one transaction with the write it makes, the answer is stored; the same key with
 * the same request gets that answer again without writing anything, the same key with another
 * request is refused as unprocessable. A write that fails stores nothing, so it may be retried with the same key.
 * Without a scope, `produce` just runs (in the caller's transaction) and nothing is stored.
 */
export async function answerOnce<Value>(scope: IdempotencyScope | undefined, produce: () => Promise<Value>, record: AnswerRecorder<Value>, db: AppDatabase = getDb()): Promise<RecordedOutcome> {
  if (scope === undefined) return { replayed: false, answer: record(await produce()) };
  return await writeTransaction(db, async (): Promise<RecordedOutcome> => {
    const stored = await storedAnswer(scope, db);
    if (stored) return stored;
    const answer = record(await produce());
    await storeAnswer(scope, answer, db);
    return { replayed: false, answer };
  });
}
