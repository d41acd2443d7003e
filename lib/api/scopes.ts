import type { SignupFilters } from "@/lib/domain/signups/queries";

// A cursor carries the scope it was issued for; a cursor used with another list or other filters is a 400.

export const WAITLISTS_SCOPE = "waitlists";

export function signupsScope(waitlistId: string, filters: SignupFilters): string {
  return `signups:${waitlistId}:verified=${filters.verified ?? "any"}:referral=${filters.referral ?? "any"}`;
}
