import { DAY_MS } from "@/lib/core/time";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups, unique, type FixtureSignup } from "./support";

export const SEGMENT_DAYS = 20;
export const PER_DAY = 3;
export const ROLES = ["Engineer", "Sales", "Founder"] as const;
/** More companies than a facet shows (10), so the company facet offers a value search. */
export const COMPANIES = 15;

/** A UTC day `back` days before today, as YYYY-MM-DD. */
export function dayBefore(back: number, now = new Date()): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - back * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A waitlist of SEGMENT_DAYS × PER_DAY signups, PER_DAY on each of the last SEGMENT_DAYS UTC days
 * before today (at 01:00, 09:00 and 17:00), with custom inputs `role` (3 values) and `company`
 * (COMPANIES values), every fourth without any; half verified, every fifth a referral.
 */
export async function createSegmentWaitlist(name = unique("Segment list")) {
  const waitlist = await createWaitlist({ name, website: "https://segments.example.com" });
  const tag = waitlist.id.slice(0, 6);
  const signups: FixtureSignup[] = Array.from({ length: SEGMENT_DAYS * PER_DAY }, (_, index) => {
    const back = 1 + Math.floor(index / PER_DAY);
    return {
      email: `person${index}.${tag}@example.com`,
      verified: index % 2 === 0,
      referral: index % 5 === 0,
      customInputs:
        index % 4 === 3
          ? []
          : [
              { label: "role", value: ROLES[index % ROLES.length]! },
              { label: "company", value: `Company ${index % COMPANIES}` },
            ],
      createdAt: new Date(Date.parse(`${dayBefore(back)}T00:00:00Z`) + (1 + 8 * (index % PER_DAY)) * 3_600_000),
    };
  });
  await insertSignups(waitlist.id, signups);
  return { waitlist, signups };
}

/** The value of a signup's custom input `label`, if it has one. */
export function inputOf(signup: FixtureSignup, label: string): string | undefined {
  const input = (signup.customInputs as { label: string; value: string }[]).find((entry) => entry.label === label);
  return input?.value;
}

/** Whether a signup was created on a UTC day from `from` to `to`, both included. */
export function withinDays(signup: FixtureSignup, from: string, to: string): boolean {
  const day = signup.createdAt.toISOString().slice(0, 10);
  return day >= from && day <= to;
}
