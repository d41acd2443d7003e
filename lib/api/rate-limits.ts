import { env } from "@/lib/core/env";
import { FixedWindowLimiter, type LimitState } from "@/lib/http/rate-limit";

// The two limits of /v1, per server process: requests per API key, and failed authentications per
// client address (never charged to a key; an IPv6 address by its /64). One instance each per
// process, whatever the bundling. At most about 11 MB and 22 MB (see FixedWindowLimiter).

const holder = globalThis as typeof globalThis & { __apiLimiters?: { perKey: FixedWindowLimiter; authFailures: FixedWindowLimiter } };

export function apiLimiters() {
  holder.__apiLimiters ??= {
    perKey: new FixedWindowLimiter(env().RATE_LIMIT_PER_MINUTE, 60_000),
    authFailures: new FixedWindowLimiter(env().AUTH_FAILURES_PER_MINUTE, 60_000, 100_000),
  };
  return holder.__apiLimiters;
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
