import Link from "next/link";
import { cardClass, linkClass, mutedText } from "@/components/styles";
import { env } from "@/lib/core/env";
import type { ReferralPanel } from "@/lib/domain/joining/referral-panel";
import type { NotCountedTally } from "@/lib/domain/joining/referrals";
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

/** What is true of the list's referrals when no referral has counted: none at all, some that do not count (yet), or only imported flags that name no referrer. */
function noCountedReferral(panel: ReferralPanel): string {
  const notCounted = Object.values(panel.notCounted).reduce((total, count) => total + count, 0);
  if (notCounted > 0) return "No referral counts yet.";
  if (panel.flaggedWithoutReferrer > 0) {
    const one = panel.flaggedWithoutReferrer === 1;
    const signups = one ? "1 signup is" : `${panel.flaggedWithoutReferrer.toLocaleString("en-US")} signups are`;
    return `${signups} marked as referred (imported, or their referrer was erased); ${one ? "it names no referrer" : "none names its referrer"}, so no referral counts.`;
  }
  return "No one has joined through a referral link yet.";
}

/** The signups whose referral links brought the most people (of the whole list, whatever the filters), counted referrals only, and the rest by reason. */
export async function TopReferrers({ waitlistId, referrals }: { waitlistId: string; referrals: Promise<ReferralPanel> }) {
  const panel = await referrals;
  const { top, notCounted, counted, flaggedWithoutReferrer } = panel;
  const reasons = NOT_COUNTED.filter(([state]) => notCounted[state] > 0);
  return (
    <section aria-labelledby="top-referrers-heading" data-testid="top-referrers" className={`${cardClass} mt-4 p-4`}>
      <h2 id="top-referrers-heading" className="text-sm font-semibold">
        Top referrers
      </h2>
      {top.length === 0 ? (
        <p data-testid="referrals-none" className={`mt-1 text-sm ${mutedText}`}>
          {noCountedReferral(panel)}
        </p>
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
      {counted > 0 ? (
        <p data-testid="referrals-counted" className="mt-2 text-sm">
          Counted: {plural(counted, "referral")}.
        </p>
      ) : null}
      {reasons.length > 0 ? (
        <p data-testid="referrals-not-counted" className="mt-2 text-sm">
          Not counted: {reasons.map(([state, label]) => `${notCounted[state].toLocaleString("en-US")} ${label}`).join(", ")}.
        </p>
      ) : null}
      {flaggedWithoutReferrer > 0 && (top.length > 0 || reasons.length > 0) ? (
        <p data-testid="referrals-without-referrer" className="mt-2 text-sm">
          Marked as referred but naming no referrer (imported, or their referrer was erased): {plural(flaggedWithoutReferrer, "signup")}, counted for no one.
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
