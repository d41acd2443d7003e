import { randomUUID } from "node:crypto";
import { requestContext } from "@/lib/http/request-context";

const REQUEST_ID_HEADER = "Request-Id";

/**
 * Cache-Control of /v1, decided per kind of data:
 * - signups are personal data (email addresses): no cache may keep a copy, not even the client's
 *   own HTTP cache on disk. Pages still carry an ETag, for clients that keep the data themselves
 *   and poll with If-None-Match.
 * - waitlists hold nothing personal but are behind a key: only the client's private cache may
 *   keep them, and must revalidate (ETag) before each use.
 * - openapi.json is public: any cache, revalidated before each use.
 * - everything else (errors, OPTIONS, redirects) is never stored.
 */
export const CACHE_CONTROL = {
  personalData: "private, no-store",
  revalidatePrivate: "private, no-cache",
  revalidatePublic: "public, no-cache",
  never: "no-store",
} as const;

/** The id the server assigned to this request (so the header and the log line agree), or a fresh one. */
export function newRequestId(): string {
  return requestContext()?.requestId ?? randomUUID();
}

/** Headers on every /v1 response; a handler may give its own Cache-Control. */
export function baseHeaders(requestId: string): Record<string, string> {
  return { "Cache-Control": CACHE_CONTROL.never, [REQUEST_ID_HEADER]: requestId };
}
