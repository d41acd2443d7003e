import { z } from "zod";
import { unsafeCharacterIn } from "@/lib/core/single-line-text";
import { templateText } from "../emails/invitation";
import { MAX_PLACES_PER_REFERRAL } from "../ranking/rule";

// A waitlist's milestones: steps of counted referrals ("3 counted referrals: move up 100 places",
// "10: Early access"). Reaching one shows on the person's page, emails them (the message, a template
// with the invitation's placeholders) and emits `signup.milestone_reached` so the product can grant
// the reward. The CLI and the dashboard write each as one line: `<referrals>:<label>[:<places>[:<message>]]`.

export const MAX_MILESTONES = 10;
export const MAX_MILESTONE_REFERRALS = 10_000;
export const MAX_MILESTONE_LABEL = 60;
export const MAX_MILESTONE_MESSAGE = 500;

export interface Milestone {
  /** Counted referrals that reach it; it is known by this number. */
  referrals: number;
  /** Its name: shown to the person, and the `milestone` filter's value (unique in the waitlist, in any case). */
  label: string;
  /** Places a waiting signup moves up when it reaches it (0: none). */
  places: number;
  /** One line for the person's email and page (placeholders as the invitation's); empty: a plain sentence. */
  message: string;
}

export const MILESTONE_FORMAT = "<referrals>:<label>[:<places>[:<message>]], e.g. 3:Early bird:100 or 10:Early access:0:You're in the first wave";

const label = z
  .string()
  .trim()
  .min(1, "needs a label")
  .max(MAX_MILESTONE_LABEL, `has a label longer than ${MAX_MILESTONE_LABEL} characters`)
  .superRefine((text, context) => {
    const unsafe = unsafeCharacterIn(text);
    if (unsafe) context.addIssue({ code: "custom", message: `has ${unsafe} in its label` });
    if (text.includes(",")) context.addIssue({ code: "custom", message: "has a comma in its label (the milestone filter separates labels with commas)" });
  });

const wholeNumber = (min: number, max: number, what: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]{1,6}$/, `needs ${what} as a whole number`)
    .transform(Number)
    .pipe(z.number().min(min, `needs ${what} from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}`).max(max, `needs ${what} from ${min.toLocaleString("en-US")} to ${max.toLocaleString("en-US")}`));

const message = templateText(MAX_MILESTONE_MESSAGE)
  .transform((text) => text.trim())
  .superRefine((text, context) => {
    const unsafe = unsafeCharacterIn(text);
    if (unsafe) context.addIssue({ code: "custom", message: `has ${unsafe} in its message (one line)` });
  });

/** One milestone as the CLI and the dashboard write it. */
export const milestoneSchema = z
  .string()
  .transform((line, context): Milestone => {
    const [referralsText = "", labelText = "", placesText = "0", ...rest] = line.split(":");
    const parts = { referrals: wholeNumber(1, MAX_MILESTONE_REFERRALS, "a number of referrals").safeParse(referralsText), label: label.safeParse(labelText), places: wholeNumber(0, MAX_PLACES_PER_REFERRAL, "places").safeParse(placesText || "0"), message: message.safeParse(rest.join(":")) };
    for (const part of Object.values(parts)) {
      if (!part.success) {
        context.addIssue({ code: "custom", message: `"${line.trim().slice(0, 80)}" ${part.error.issues[0]!.message} (write ${MILESTONE_FORMAT})` });
        return z.NEVER;
      }
    }
    return { referrals: parts.referrals.data!, label: parts.label.data!, places: parts.places.data!, message: parts.message.data! };
  });

/** A whole list, sorted by referrals: each step once, each label once (in any case), at most MAX_MILESTONES. */
export const milestonesSchema = z
  .array(milestoneSchema)
  .max(MAX_MILESTONES, `at most ${MAX_MILESTONES} milestones`)
  .superRefine((list, context) => {
    const twice = <T>(values: T[]) => values.find((value, index) => values.indexOf(value) !== index);
    const step = twice(list.map((milestone) => milestone.referrals));
    if (step !== undefined) context.addIssue({ code: "custom", message: `two milestones at ${step} referrals` });
    const name = twice(list.map((milestone) => milestone.label.toLowerCase()));
    if (name !== undefined) context.addIssue({ code: "custom", message: `two milestones labelled "${name}"` });
  })
  .transform((list) => [...list].sort((a, b) => a.referrals - b.referrals));

/** A milestone as the CLI writes it. */
export function formatMilestone(milestone: Milestone): string {
  const tail = milestone.message ? `:${milestone.places}:${milestone.message}` : milestone.places ? `:${milestone.places}` : "";
  return `${milestone.referrals}:${milestone.label}${tail}`;
}

/** A milestone in words, for the dashboard, the CLI and the person's page. */
export function describeMilestone(milestone: Pick<Milestone, "referrals" | "label" | "places">): string {
  const reward = milestone.places > 0 ? `, moves up ${milestone.places.toLocaleString("en-US")} place${milestone.places === 1 ? "" : "s"}` : "";
  return `${milestone.label}: ${milestone.referrals} counted referral${milestone.referrals === 1 ? "" : "s"}${reward}`;
}
