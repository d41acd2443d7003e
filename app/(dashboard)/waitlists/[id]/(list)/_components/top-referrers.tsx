import Link from "next/link";
import { cardClass, linkClass, mutedText } from "@/components/styles";
import type { Referrer } from "@/lib/domain/joining/referrals";
import { signupPublicId } from "@/lib/domain/signups/id";

/** How many referrers the panel lists. */
export const TOP_REFERRERS = 10;

/** The signups whose referral links brought the most people (of the whole list, whatever the filters). */
export async function TopReferrers({ waitlistId, referrers }: { waitlistId: string; referrers: Promise<(Referrer & { referrals: number })[]> }) {
  const top = await referrers;
  return (
    <section aria-labelledby="top-referrers-heading" data-testid="top-referrers" className={`${cardClass} mt-4 p-4`}>
      <h2 id="top-referrers-heading" className="text-sm font-semibold">
        Top referrers
      </h2>
      {top.length === 0 ? (
        <p className={`mt-1 text-sm ${mutedText}`}>No one has joined through a referral link yet.</p>
      ) : (
        <ol className="mt-2 grid gap-1 text-sm">
          {top.map((referrer) => (
            <li key={referrer.id} className="flex min-w-0 justify-between gap-4">
              <Link href={`/waitlists/${waitlistId}/signups/${signupPublicId(referrer.id)}`} className={`${linkClass} min-w-0 truncate`}>
                {referrer.email}
              </Link>
              <span className="tabular-nums">
                {referrer.referrals.toLocaleString("en-US")} referral{referrer.referrals === 1 ? "" : "s"}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
