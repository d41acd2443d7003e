// How long a dashboard session and its cookie last. Free of database imports: proxy.ts reads it.
import { DAY_MS, HOUR_MS } from "@/lib/core/time";

/** Sessions last 12 hours from sign-in (absolute, not sliding): a day's work, then sign in again. */
export const SESSION_LIFETIME_MS = 12 * HOUR_MS;
/**
 * The cookie outlives its session by a day, so that a request after the 12 hours still reaches the
 * server with the token and the sign-in page can say that the session expired.
 */
export const SESSION_COOKIE_GRACE_MS = DAY_MS;
