import { env } from "@/lib/core/env";
import type { WindowSpec } from "@/lib/http/limits";
import type { LimitState } from "@/lib/http/rate-limit";

// The two limits of /v1, per server on SQLite (each worker allows its share) and across all servers on
// PostgreSQL (see lib/http/limits.ts): requests per API key, and failed authentications per client
// address (never charged to a key; an IPv6 address by its /64). In memory, at most about 11 MB and
// 22 MB (see FixedWindowLimiter).

export function apiLimits(): { perKey: WindowSpec; authFailures: WindowSpec } {
  const { RATE_LIMIT_PER_MINUTE, AUTH_FAILURES_PER_MINUTE } = env();
  return {
    perKey: { name: "per-key", limit: RATE_LIMIT_PER_MINUTE, windowMs: 60_000, maxKeys: 50_000 },
    authFailures: { name: "auth-failures", limit: AUTH_FAILURES_PER_MINUTE, windowMs: 60_000, maxKeys: 100_000 },
  };
}

export type PolicyName = "per-key" | "auth-failures";

/**
 * The headers of draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy` (quota `q` per window
 * `w` seconds) and `RateLimit` (`r` remaining, `t` seconds until the window resets), plus
 * `Retry-After` when the request was refused.
 */
export function rateLimitHeaders(policy: PolicyName, state: LimitState): Record<string, string> {
  return {
    "RateLimit-Policy": `"${policy}";q=${state.limit};w=${state.windowSeconds}`,
    RateLimit: `"${policy}";r=${state.remaining};t=${state.resetSeconds}`,
    ...(!state.allowed && { "Retry-After": String(state.resetSeconds) }),
  };
}
