import { AppError } from "@/lib/errors";
import { verifyApiKey, VIEW_ROLE, type Role } from "@/lib/api-keys";

const UNAUTHENTICATED = "A valid API key is required: send it as \"Authorization: Bearer <key>\" or \"X-API-Key: <key>\".";

/** The presented key from `Authorization: Bearer <key>` or `X-API-Key: <key>`; never from the query string. */
export function presentedApiKey(headers: Headers): string | null {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    return match ? match[1]! : null;
  }
  return headers.get("x-api-key")?.trim() || null;
}

/**
 * Throws 401 for a missing, malformed, unknown, revoked or expired key (one message for all, so a
 * caller learns nothing about which), and 403 for a valid key without `role`.
 */
export function authenticate(headers: Headers, role: Role = VIEW_ROLE) {
  const check = verifyApiKey(presentedApiKey(headers), role);
  if (check.ok) return check.key;
  if (check.reason === "forbidden") throw new AppError("forbidden", `This API key lacks the role "${role}".`);
  throw new AppError("unauthenticated", UNAUTHENTICATED);
}
