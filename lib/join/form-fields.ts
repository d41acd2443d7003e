// The join form's vocabulary, shared by the page that shows it (app/join/[waitlistId]/page.tsx) and
// the POST that reads it (./submit.ts): its field names and what it says after a refusal.

/** The honeypot: a field people never see (the form hides it), which only a bot fills in. */
export const HONEYPOT_FIELD = "website_url";

/** The form field of the join settings' field at `index`. */
export const fieldName = (index: number) => `field_${index}`;

/** What the form says after a refusal (`?error=`), naming nothing about other signups. */
export const JOIN_ERRORS = {
  closed: "This waitlist is not taking new signups right now.",
  invalid_email: "Please enter a valid email address.",
  disposable_email: "This waitlist does not accept disposable email addresses: please use your own address.",
  invalid_inputs: "Please fill in the fields as asked.",
  rate_limited: "Too many signups just now from this address, from your network or for this list: please try again later.",
  challenge: "The anti-spam check did not complete: please wait for it to finish, then join again.",
  refused: "Your signup could not be accepted.",
} as const;
export type JoinError = keyof typeof JOIN_ERRORS;

export function isJoinError(value: unknown): value is JoinError {
  return typeof value === "string" && Object.hasOwn(JOIN_ERRORS, value);
}
