import { createHash } from "node:crypto";
import { scopeKey, type SignupScope } from "@/lib/domain/signups/filter";

// A cursor carries the scope it was issued for; a cursor used with another list or other filters is a 400.

export const WAITLISTS_SCOPE = "waitlists";

/** The list and every filter, as a short digest (a cursor stays short whatever the filters). */
export function signupsScope(scope: SignupScope): string {
  return `signups:${createHash("sha256").update(scopeKey(scope)).digest("base64url").slice(0, 22)}`;
}

/** A waitlist's event feed. */
export function eventsScope(waitlistId: string): string {
  return `events:${waitlistId}`;
}
