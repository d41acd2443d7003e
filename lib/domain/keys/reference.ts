import { getDb, type AppDatabase } from "@/db/client";
import { AppError } from "@/lib/core/errors";
import { findApiKeyByHash, hashSecret, keyStatus, listApiKeys, looksLikeApiKey, toApiKeySummary, type ApiKeySummary, type KeyStatus } from "./queries";

const PREFIX_START = "wl_";
/** Characters a prefix needs after "wl_": fewer would let a typo pick some other key. */
export const MIN_PREFIX_CHARACTERS = 4;

type FoundKey = ApiKeySummary & { status: KeyStatus };

/**
 * The key a person means by `reference`: its id, its prefix as `keys list` shows it (when only one
 * key has it; a trailing "…" is ignored), or the whole key (a leaked key can be revoked without
 * looking it up). An unknown reference is not_found; an ambiguous prefix is an error that lists
 * the candidates. The error never repeats a whole key.
 */
export async function resolveApiKeyReference(reference: string, db: AppDatabase = getDb()): Promise<FoundKey> {
  const text = reference.trim().replace(/(…|\.\.\.)$/, "");
  if (looksLikeApiKey(text)) {
    const row = await findApiKeyByHash(hashSecret(text), db);
    if (!row) throw new AppError("not_found", "No API key matches the key given (was it created on another database?)");
    return { ...toApiKeySummary(row), status: keyStatus(row) };
  }
  const keys = await listApiKeys(db);
  const byId = keys.find((key) => key.id === text.toLowerCase());
  if (byId) return byId;
  if (!text.startsWith(PREFIX_START)) throw new AppError("not_found", `No API key has the id ${JSON.stringify(text)} (give an id, a prefix such as wl_AbC123 or the whole key)`);
  if (text.length < PREFIX_START.length + MIN_PREFIX_CHARACTERS) {
    throw new AppError("invalid_parameter", `The prefix ${JSON.stringify(text)} is too short: give at least ${MIN_PREFIX_CHARACTERS} characters after wl_`);
  }
  // Only a short prefix is stored: a longer text matches the keys whose prefix it starts with.
  const candidates = keys.filter((key) => (text.length <= key.prefix.length ? key.prefix.startsWith(text) : text.startsWith(key.prefix)));
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) throw new AppError("not_found", `No API key has the prefix ${text}`);
  const listed = candidates.map((key) => `${key.id} (${key.name}, ${key.prefix}…, ${key.status})`).join("; ");
  throw new AppError("invalid_parameter", `The prefix ${text} matches ${candidates.length} keys: ${listed}. Give the id or the whole key`);
}
