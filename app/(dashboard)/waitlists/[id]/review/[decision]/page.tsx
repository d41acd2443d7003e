import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ConfirmForm } from "@/components/confirm-form";
import { formatCount } from "@/components/format";
import { linkClass, mutedText } from "@/components/styles";
import { AppError } from "@/lib/core/errors";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { parseReviewSelection } from "@/lib/dashboard/review-selection";
import { searchParamEntries } from "@/lib/dashboard/status-selection";
import { FLAG_DECISIONS, isFlagDecision } from "@/lib/domain/fraud/reasons";
import { previewReview } from "@/lib/domain/fraud/review";
import { Breadcrumb } from "../../breadcrumb";
import { findWaitlist } from "../../find-waitlist";

type Props = {
  params: Promise<{ id: string; decision: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { decision } = await params;
  return { title: isFlagDecision(decision) ? `${FLAG_DECISIONS[decision].label} flagged signups` : "Not found" };
}

const signups = (count: number) => `${formatCount(count)} signup${count === 1 ? "" : "s"}`;

// The confirmation of a review decision on the rows selected in the review view: how many it
// decides and how many it leaves; the form posts the same selection to ./confirm.
export default async function ReviewDecisionPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const { id, decision } = await params;
  const waitlist = await findWaitlist(id);
  if (!waitlist || !isFlagDecision(decision)) notFound();
  const { label, event } = FLAG_DECISIONS[decision];
  let chosen: ReturnType<typeof parseReviewSelection>;
  try {
    chosen = parseReviewSelection(waitlist.id, searchParamEntries(await searchParams));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return (
      <>
        <Breadcrumb waitlist={waitlist} />
        <h1 className="mt-2 text-2xl font-semibold">{label}: nothing to do</h1>
        <p role="alert" className="mt-4 text-sm" data-testid="selection-error">
          {error.message}
        </p>
        <p className="mt-4 text-sm">
          <Link href={`/waitlists/${waitlist.id}/review`} className={`${linkClass} underline`}>
            Back to the review
          </Link>
        </p>
      </>
    );
  }
  const preview = await previewReview(chosen.selection);
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-2 break-words text-2xl font-semibold">{preview.decides === 0 ? `Nothing to ${label.toLowerCase()}` : `${label} ${signups(preview.decides)}?`}</h1>
      <div className="mt-4 max-w-2xl space-y-3 text-sm">
        <p>The {signups(chosen.selection.ids.length)} you selected.</p>
        <ul className="list-disc space-y-1 pl-5" data-testid="action-numbers">
          <li>
            <strong data-testid="action-count">{formatCount(preview.decides)}</strong> {preview.decides === 1 ? "is" : "are"} waiting for review and will be {FLAG_DECISIONS[decision].past}
            {decision === "approve" ? ": a held referral counts from now on." : ": a referral never counts."}
          </li>
          {preview.skipped > 0 ? <li>Already decided, left as they are: {formatCount(preview.skipped)}.</li> : null}
          {preview.missing > 0 ? <li>{signups(preview.missing)} you selected {preview.missing === 1 ? "is" : "are"} no longer on the list.</li> : null}
        </ul>
        <p className={mutedText}>
          Each decision is recorded as one <code>{event}</code> event (what webhooks and the events feed deliver), and the audit log records it once, with its count.
        </p>
      </div>
      {preview.decides === 0 ? (
        <p className="mt-6 text-sm">
          <Link href={chosen.returnTo} className={`${linkClass} underline`}>
            Back
          </Link>
        </p>
      ) : (
        <ConfirmForm action={`/waitlists/${waitlist.id}/review/${decision}/confirm`} hidden={chosen.fields} submit={`${label} ${signups(preview.decides)}`} tone={decision === "discount" ? "danger" : "primary"} cancelHref={chosen.returnTo} />
      )}
    </>
  );
}
