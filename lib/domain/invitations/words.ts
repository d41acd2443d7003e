import { DAY_MS, HOUR_MS } from "@/lib/core/time";

// The words of an invitation's timing, for the signup's page and history. No server-only import:
// client components may show them.

/** What the scheduler's events of a signup say happened, in its status history. */
export const INVITATION_EVENT_WORDS: Record<string, string> = {
  "signup.invitation_reminder": "Reminder sent",
  "signup.invitation_expired": "Invitation expired",
};

/** "expires in 3 days", "expires in 5 hours", "expires in under an hour", "expired: the scheduler moves it on its next run". */
export function expiryInWords(expiresAt: number, now: number): string {
  const left = expiresAt - now;
  if (left <= 0) return "expired: the scheduler moves it on its next run";
  if (left >= DAY_MS) {
    // Rounded, not cut: an invitation of 3 days just sent "expires in 3 days", not 2.
    const days = Math.round(left / DAY_MS);
    return `expires in ${days} day${days === 1 ? "" : "s"}`;
  }
  const hours = Math.floor(left / HOUR_MS);
  return hours === 0 ? "expires in under an hour" : `expires in ${hours} hour${hours === 1 ? "" : "s"}`;
}
