import { inputClass, linkClass, mutedText } from "@/components/styles";
import { REFERRAL_STATE_LABELS } from "@/lib/domain/joining/referrals";
import type { ReferralsMade } from "@/lib/domain/people/referrals-made";
import { shareLinks } from "@/lib/join/person-share";
import { ShareButtons } from "./share-buttons";

const friends = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "friend" : "friends"}`;

/** The person's referral link, its share buttons, and what came of it (counts and reasons, never who). */
export function ReferralSection({ link, waitlistName, referrals }: { link: string; waitlistName: string; referrals: ReferralsMade }) {
  const notCounted = Object.entries(referrals.notCounted) as [keyof ReferralsMade["notCounted"], number][];
  return (
    <section aria-labelledby="referral-heading" className="mt-6">
      <h2 id="referral-heading" className="text-base font-semibold">
        Your referral link
      </h2>
      <p className={`text-sm ${mutedText}`}>Share it: people who join through it are counted as your referrals.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <label htmlFor="referral-link" className="sr-only">
          Your referral link
        </label>
        <input id="referral-link" readOnly value={link} className={`${inputClass} min-w-0 flex-1 basis-48 font-mono text-xs`} />
        <ShareButtons link={link} title={`Join the ${waitlistName} waitlist`} />
      </div>
      <p className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-sm" data-testid="share-links">
        <span className={mutedText}>Share by</span>
        {shareLinks(link, waitlistName).map((share) => (
          <a key={share.label} href={share.href} className={`${linkClass} underline`} target="_blank" rel="noopener noreferrer">
            {share.label}
          </a>
        ))}
      </p>
      <div data-testid="referral-counts" className="mt-4 text-sm">
        <p>
          {referrals.joined === 0
            ? "No one has joined through your link yet."
            : `${friends(referrals.joined)} joined through your link; ${referrals.counted.toLocaleString("en-US")} counted.`}
        </p>
        {notCounted.length > 0 ? (
          <ul className={`mt-1 list-disc pl-5 ${mutedText}`}>
            {notCounted.map(([state, n]) => (
              <li key={state}>
                {friends(n)}: {REFERRAL_STATE_LABELS[state]}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
