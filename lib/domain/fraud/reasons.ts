// Why a signup waits for an admin's review, and what the admin may decide. No import at run time:
// the filter list (../signups/filter.ts), which client components load, reads FLAG_REASONS.
// db/schema.ts's CHECKs allow exactly these (a unit test ties the lists together).

/** The rules that flag a signup, in the order the dashboard and the docs list them. */
export const FLAG_REASONS = ["disposable", "lookalike", "burst", "referral_limit"] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** A reason in words, for a chip, a facet or the review list. */
export const FLAG_REASON_LABELS: Record<FlagReason, string> = {
  disposable: "Disposable address",
  lookalike: "Look-alike of the referrer",
  burst: "Burst from one network",
  referral_limit: "Referrer's daily limit",
};

export function isFlagReason(text: string): text is FlagReason {
  return (FLAG_REASONS as readonly string[]).includes(text);
}

/**
 * The two decisions on a flagged signup: its words, the event each signup gets, the audit action.
 * Approving makes a held referral count (since now); discounting makes it never count.
 */
export const FLAG_DECISIONS = {
  approve: { stored: "approved", event: "signup.flag_approved", audit: "signups.flag_approve", label: "Approve", past: "approved" },
  discount: { stored: "discounted", event: "signup.flag_discounted", audit: "signups.flag_discount", label: "Discount", past: "discounted" },
} as const;

export type FlagDecision = keyof typeof FLAG_DECISIONS;
export const FLAG_DECISION_NAMES = Object.keys(FLAG_DECISIONS) as FlagDecision[];

export function isFlagDecision(text: string): text is FlagDecision {
  return Object.hasOwn(FLAG_DECISIONS, text);
}
