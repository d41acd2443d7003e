import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DoneNotice } from "@/components/done-notice";
import { formatCount } from "@/components/format";
import { buttonClass, cardClass, linkClass, mutedText, primaryButtonClass } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { pendingFlagCounts, pendingReview, REVIEW_PAGE } from "@/lib/domain/fraud/flags";
import { FLAG_DECISION_NAMES, FLAG_DECISIONS, FLAG_REASON_LABELS, FLAG_REASONS } from "@/lib/domain/fraud/reasons";
import { signupPublicId } from "@/lib/domain/signups/id";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";

export const metadata: Metadata = { title: "Review" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const DONE = Object.fromEntries(FLAG_DECISION_NAMES.map((decision) => [FLAG_DECISIONS[decision].past, `Signups ${FLAG_DECISIONS[decision].past}.`]));

// The signups flagged by the fraud rules and waiting for an admin (lib/domain/fraud): select rows,
// then approve or discount them on a confirmation page, as with status actions. /v1: the `flag`
// filter lists them, POST …/signup/review/{approve|discount} decides; the CLI: `signups review`.
export default async function ReviewPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  const query = await searchParams;
  const flagged = await pendingReview(waitlist.id);
  const counts = await pendingFlagCounts(waitlist.id);
  const reasons = FLAG_REASONS.filter((reason) => counts[reason] > 0);
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-1 break-words text-2xl font-semibold">Review {waitlist.name}</h1>
      <p className={`mt-1 max-w-2xl text-sm ${mutedText}`}>
        Signups flagged by a rule wait here: a disposable address, a look-alike of the referrer, a burst of joins from one network, or a referrer past the daily limit. Approve
        one and its referral counts from now on; discount it and its referral never counts. Either way the signup stays on the list.
      </p>
      <DoneNotice done={query.done} messages={DONE} />
      {reasons.length > 0 ? (
        <ul className="mt-4 flex flex-wrap gap-2 text-sm" data-testid="flag-facet" aria-label="Flags waiting, by reason">
          {reasons.map((reason) => (
            <li key={reason}>
              <Link href={`/waitlists/${waitlist.id}?flag=${reason}`} className={`${buttonClass} tabular-nums`}>
                {FLAG_REASON_LABELS[reason]}: {formatCount(counts[reason])}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {flagged.length === 0 ? (
        <p className={`mt-6 text-sm ${mutedText}`} data-testid="review-empty">
          No signup is waiting for review.
        </p>
      ) : (
        <form method="get" className="mt-6 grid gap-3">
          <input type="hidden" name="return" value={`/waitlists/${waitlist.id}/review`} />
          <div className={`${cardClass} overflow-x-auto`}>
            <table className="w-full text-left text-sm" data-testid="review-table">
              <thead className={mutedText}>
                <tr>
                  <th scope="col" className="w-10 px-3 py-2">
                    <span className="sr-only">Select</span>
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Email
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Flagged for
                  </th>
                  <th scope="col" className="px-3 py-2 max-sm:hidden">
                    Joined
                  </th>
                </tr>
              </thead>
              <tbody>
                {flagged.map((signup) => (
                  <tr key={signup.id} className="border-t border-zinc-200 dark:border-zinc-800">
                    <td className="px-3 py-2">
                      <input type="checkbox" name="ids" value={signupPublicId(signup.id)} aria-label={`Select ${signup.email}`} />
                    </td>
                    <td className="max-w-64 break-all px-3 py-2">
                      <Link href={`/waitlists/${waitlist.id}/signups/${signupPublicId(signup.id)}`} className={linkClass}>
                        {signup.email}
                      </Link>
                    </td>
                    <td className="px-3 py-2">{signup.reasons.map((reason) => FLAG_REASON_LABELS[reason]).join(", ")}</td>
                    <td className={`whitespace-nowrap px-3 py-2 max-sm:hidden ${mutedText}`}>{signup.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {flagged.length === REVIEW_PAGE ? <p className={`text-sm ${mutedText}`}>The oldest {REVIEW_PAGE} are shown: decide these to see the next.</p> : null}
          <div className="flex flex-wrap gap-2">
            <button type="submit" formAction={`/waitlists/${waitlist.id}/review/approve`} className={primaryButtonClass}>
              Approve selected…
            </button>
            <button type="submit" formAction={`/waitlists/${waitlist.id}/review/discount`} className={buttonClass}>
              Discount selected…
            </button>
          </div>
        </form>
      )}
    </>
  );
}
