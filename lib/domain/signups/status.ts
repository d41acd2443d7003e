// A signup's status and the one table of its transitions: every surface (the CLI, /v1, the
// dashboard, the docs) reads the actions and their states from here. No import at run time:
// the filter list (filter.ts), which client components load, reads SIGNUP_STATUSES.

/** In the order the dashboard and the docs list them; db/schema.ts's CHECK allows exactly these. */
export const SIGNUP_STATUSES = ["waiting", "invited", "completed", "rejected"] as const;
export type SignupStatus = (typeof SIGNUP_STATUSES)[number];

export function isSignupStatus(text: string): text is SignupStatus {
  return (SIGNUP_STATUSES as readonly string[]).includes(text);
}

/** Each action: the one state it applies to, the state it leads to, and the event it records. */
export const STATUS_ACTIONS = {
  invite: { from: "waiting", to: "invited", event: "signup.invited", past: "invited" },
  reject: { from: "waiting", to: "rejected", event: "signup.rejected", past: "rejected" },
  withdraw: { from: "invited", to: "waiting", event: "signup.invitation_withdrawn", past: "withdrawn" },
  restore: { from: "rejected", to: "waiting", event: "signup.restored", past: "restored" },
  complete: { from: "invited", to: "completed", event: "signup.completed", past: "completed" },
} as const satisfies Record<string, { from: SignupStatus; to: SignupStatus; event: string; past: string }>;

export type StatusAction = keyof typeof STATUS_ACTIONS;
export const STATUS_ACTION_NAMES = Object.keys(STATUS_ACTIONS) as StatusAction[];

/** Why `action` cannot apply to a signup in state `current`, naming both states; undefined when it can. */
export function refusal(action: StatusAction, current: SignupStatus): string | undefined {
  const { from, to } = STATUS_ACTIONS[action];
  if (current === from) return undefined;
  return `cannot ${action} a signup that is ${current}: only ${/^[aeiou]/.test(from) ? "an" : "a"} ${from} signup can become ${to}`;
}
