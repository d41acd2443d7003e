import type { NewSignup } from "./queries";

/**
 * When an inserted signup was first invited and completed: its own times, or, as migration 0023 read
 * them for the signups before it, the time of its imported status's last change.
 */
export function statusTimesOf(signup: NewSignup, status: string): { invitedAt: number | null; completedAt: number | null } {
  return {
    invitedAt: signup.invitedAt ?? (status === "invited" ? (signup.statusChangedAt ?? null) : null),
    completedAt: signup.completedAt ?? (status === "completed" ? (signup.statusChangedAt ?? null) : null),
  };
}
