// A signup's status and the one table of its transitions: every surface (the CLI, /v1, the
// dashboard, the docs) reads the actions and their states from here. No import at run time:
// the filter list (filter.ts), which client components load, reads SIGNUP_STATUSES.

/** In the order the dashboard and the docs list them; db/schema.ts's CHECK allows exactly these. */
export const SIGNUP_STATUSES = ["waiting", "invited", "completed", "rejected"] as const;
export type SignupStatus = (typeof SIGNUP_STATUSES)[number];

/** A status as a word on a badge or in a facet. */
export const STATUS_LABELS: Record<SignupStatus, string> = { waiting: "Waiting", invited: "Invited", completed: "Completed", rejected: "Rejected" };

export function isSignupStatus(text: string): text is SignupStatus {
  return (SIGNUP_STATUSES as readonly string[]).includes(text);
}

/**
 * Each action: the one state it applies to, the state it leads to, the event it records, and its
 * words (the dashboard's button, its question about `who`, and what a signup's history says happened).
 */
export const STATUS_ACTIONS = {
  invite: { from: "waiting", to: "invited", event: "signup.invited", past: "invited", label: "Invite", happened: "Invited", phrase: (who: string) => `Invite ${who}` },
  reject: { from: "waiting", to: "rejected", event: "signup.rejected", past: "rejected", label: "Reject", happened: "Rejected", phrase: (who: string) => `Reject ${who}` },
  withdraw: { from: "invited", to: "waiting", event: "signup.invitation_withdrawn", past: "withdrawn", label: "Withdraw invitation", happened: "Invitation withdrawn", phrase: (who: string) => `Withdraw the invitation of ${who}` },
  restore: { from: "rejected", to: "waiting", event: "signup.restored", past: "restored", label: "Restore", happened: "Restored", phrase: (who: string) => `Restore ${who}` },
  complete: { from: "invited", to: "completed", event: "signup.completed", past: "completed", label: "Mark completed", happened: "Completed", phrase: (who: string) => `Mark ${who} completed` },
} as const satisfies Record<string, { from: SignupStatus; to: SignupStatus; event: string; past: string; label: string; happened: string; phrase: (who: string) => string }>;

export type StatusAction = keyof typeof STATUS_ACTIONS;
export const STATUS_ACTION_NAMES = Object.keys(STATUS_ACTIONS) as StatusAction[];

export function isStatusAction(text: string): text is StatusAction {
  return Object.hasOwn(STATUS_ACTIONS, text);
}

/** The actions that apply to a signup in state `status`. */
export function actionsFrom(status: SignupStatus): StatusAction[] {
  return STATUS_ACTION_NAMES.filter((action) => STATUS_ACTIONS[action].from === status);
}

/** Why `action` cannot apply to a signup in state `current`, naming both states; undefined when it can. */
export function refusal(action: StatusAction, current: SignupStatus): string | undefined {
  const { from, to } = STATUS_ACTIONS[action];
  if (current === from) return undefined;
  return `cannot ${action} a signup that is ${current}: only ${/^[aeiou]/.test(from) ? "an" : "a"} ${from} signup can become ${to}`;
}

/**
 * The most signups one status action changes with a filter and a limit: `limit` of /v1, and "the next
 * N" of the dashboard (its field's max). Each such action is one write: 10,000 rows keep it well under
 * a second, so joins waiting for the write lock meanwhile are not held up. (The dashboard's "every
 * match" has no limit.)
 */
export const MAX_ACTION_LIMIT = 10_000;
