import Link from "next/link";
import { cardClass, linkClass, mutedText } from "@/components/styles";
import { env } from "@/lib/core/env";
import type { NotCountedTally, Referrer } from "@/lib/domain/joining/referrals";
import { signupPublicId } from "@/lib/domain/signups/id";

/** How many referrers the panel lists. */
export const TOP_REFERRERS = 10;

const NOT_COUNTED: [keyof NotCountedTally, string][] = [
  ["unverified", "not confirmed yet"],
  ["lookalike", "the referrer's own address again"],
  ["daily_limit", "over a referrer's daily limit"],
  ["flagged", "held for review"],
  ["discounted", "discounted by an admin"],
];

const plural = (count: number, word: string) => `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;

/** The signups whose referral links brought the most people (of the whole list, whatever the filters), counted referrals only, and the rest by reason. */
export async function TopReferrers({ waitlistId, referrals }: { waitlistId: string; referrals: Promise<{ top: (Referrer & { referrals: number })[]; notCounted: NotCountedTally }> }) {
  const { top, notCounted } = await referrals;
  const reasons = NOT_COUNTED.filter(([state]) => notCounted[state] > 0);
  return (
    <section aria-labelledby="top-referrers-heading" data-testid="top-referrers" className={`${cardClass} mt-4 p-4`}>
      <h2 id="top-referrers-heading" className="text-sm font-semibold">
        Top referrers
      </h2>
      {top.length === 0 ? (
        <p className={`mt-1 text-sm ${mutedText}`}>No referral link has brought a counted signup yet.</p>
      ) : (
        <ol className="mt-2 grid gap-1 text-sm">
          {top.map((referrer) => (
            <li key={referrer.id} className="flex min-w-0 justify-between gap-4">
              <Link href={`/waitlists/${waitlistId}/signups/${signupPublicId(referrer.id)}`} className={`${linkClass} min-w-0 truncate`}>
                {referrer.email}
              </Link>
              <span className="tabular-nums">{plural(referrer.referrals, "referral")}</span>
            </li>
          ))}
        </ol>
      )}
      {reasons.length > 0 ? (
        <p data-testid="referrals-not-counted" className="mt-2 text-sm">
          Not counted: {reasons.map(([state, label]) => `${notCounted[state].toLocaleString("en-US")} ${label}`).join(", ")}.
        </p>
      ) : null}
      <p className={`mt-2 text-xs ${mutedText}`}>
        A referral counts once its signup has confirmed its address (on a list that verifies), unless it is the referrer&apos;s own address again
        (a plus tag, or dots at Gmail), and at most {env().REFERRALS_PER_REFERRER_PER_DAY.toLocaleString("en-US")} per referrer in 24 hours. Signups imported
        with the referral flag name no referrer and count for no one.
      </p>
    </section>
  );
}
