import { AppError } from "@/lib/core/errors";
import type { ApiKey } from "@/lib/domain/keys/queries";
import { verifyApiKey, VIEW_ROLE, type Role } from "@/lib/domain/keys/queries";
import { currentClientLimiterKey } from "@/lib/http/client-address";
import type { HeaderReader } from "@/lib/http/incoming";
import { setRequestKeyId } from "@/lib/http/request-context";
import { serverLimits } from "@/lib/http/limits";
import { sharedLimitStore } from "@/lib/domain/limits/shared";
import { apiLimits, rateLimitHeaders } from "./rate-limits";

const UNAUTHENTICATED = "A valid API key is required: send it as \"Authorization: Bearer <key>\" or \"X-API-Key: <key>\".";

/** The presented key from `Authorization: Bearer <key>` or `X-API-Key: <key>`; never from the query string. */
export function presentedApiKey(headers: HeaderReader): string | null {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    return match ? match[1]! : null;
  }
  return headers.get("x-api-key")?.trim() || null;
}

/** The outcome of authentication: the key, or the error to answer with; rate-limit headers either way. */
export type Admission = { key: ApiKey; error?: undefined; headers: Record<string, string> } | { error: AppError; headers: Record<string, string> };

function rateLimited(retryAfter: number, why: string): AppError {
  return new AppError("rate_limited", `${why} Retry after ${retryAfter} s.`);
}

const failuresLimited = (retryAfter: number) => rateLimited(retryAfter, "Too many failed authentications from this address.");

/**
 * Authentication, role and rate limits:
 * - a client address (an IPv6 one by its /64) with too many failed authentications in the last
 *   minute gets 429 whatever key it sends (so keys cannot be guessed faster than the limit);
 * - a missing, malformed, unknown, revoked or expired key is a 401 (one message for all, so a
 *   caller learns nothing about which) and counts as a failure of the client address;
 * - a valid key is charged one request (429 past its limit), then needs `role` (else 403).
 * The key is checked first, so that one call to the limits (lib/http/limits.ts: this process's
 * share of them on SQLite, the database's on PostgreSQL) either counts the address's failure or
 * charges the key behind its guard.
 */
export async function admitApiRequest(headers: HeaderReader, role: Role = VIEW_ROLE): Promise<Admission> {
  const { perKey, authFailures } = apiLimits();
  const clientKey = currentClientLimiterKey(headers);
  const limits = serverLimits(sharedLimitStore());
  const check = await verifyApiKey(presentedApiKey(headers), role);
  if (!check.ok && check.reason === "unauthenticated") {
    const state = await limits.hit(authFailures, clientKey);
    return { error: state.allowed ? new AppError("unauthenticated", UNAUTHENTICATED) : failuresLimited(state.resetSeconds), headers: rateLimitHeaders("auth-failures", state) };
  }
  const { guarded, state } = await limits.hitUnlessExhausted(perKey, check.key.id, authFailures, clientKey);
  if (guarded) return { error: failuresLimited(state.resetSeconds), headers: rateLimitHeaders("auth-failures", state) };
  setRequestKeyId(check.key.id);
  const headersOut = rateLimitHeaders("per-key", state);
  if (!state.allowed) return { error: rateLimited(state.resetSeconds, `This API key has used its ${state.limit} requests of the last ${state.windowSeconds} s.`), headers: headersOut };
  if (!check.ok) return { error: new AppError("forbidden", `This API key lacks the role "${role}".`), headers: headersOut };
  return { key: check.key, headers: headersOut };
}
