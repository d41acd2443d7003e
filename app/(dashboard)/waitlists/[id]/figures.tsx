import { formatCount, formatPercent } from "@/components/format";
import { Skeleton } from "@/components/skeleton";
import { cardClass, mutedText } from "@/components/styles";
import type { SignupCounts } from "@/lib/domain/signups/counts";

function Figure({ label, value, detail, testId }: { label: string; value: string; detail?: string; testId: string }) {
  return (
    <div className={`${cardClass} px-4 py-3`}>
      <dt className={`text-xs font-semibold uppercase tracking-wide ${mutedText}`}>{label}</dt>
      <dd className="mt-1 flex flex-wrap items-baseline gap-x-2">
        <span className="text-2xl font-semibold tabular-nums" data-testid={testId}>
          {value}
        </span>
        {detail ? <span className={`text-sm ${mutedText}`}>{detail}</span> : null}
      </dd>
    </div>
  );
}

/** Totals for the current filters and search, streamed in when the counts are ready. */
export async function Figures({ counts, lastWeek }: { counts: Promise<SignupCounts>; lastWeek: Promise<number> }) {
  const [{ total, verified, referral }, recent] = await Promise.all([counts, lastWeek]);
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Figure label="Signups" value={formatCount(total)} testId="figure-total" />
      <Figure label="Verified" value={formatCount(verified)} detail={formatPercent(verified, total)} testId="figure-verified" />
      <Figure label="Referral" value={formatCount(referral)} detail={formatPercent(referral, total)} testId="figure-referral" />
      <Figure label="Last 7 days" value={formatCount(recent)} testId="figure-last-7-days" />
    </dl>
  );
}

export function FiguresSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" role="status" aria-label="Loading figures">
      {Array.from({ length: 4 }, (_, index) => (
        <div key={index} className={`${cardClass} px-4 py-3`}>
          <Skeleton className="h-3 w-20" />
          <Skeleton className="mt-2 h-7 w-24" />
        </div>
      ))}
    </div>
  );
}
