import { formatCount, formatPercent } from "@/components/format";
import { Skeleton } from "@/components/skeleton";
import { cardClass, mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import type { SignupCounts } from "@/lib/domain/signups/counts";
import { isFiltered } from "@/lib/dashboard/signup-table-url";

const gridClass = "grid grid-cols-4 gap-2 xl:grid-cols-2";

/** `short`: the label on a phone, where four figures share a line. */
function Figure({ label, short, value, detail, testId }: { label: string; short?: string; value: string; detail: string; testId: string }) {
  return (
    <div className={`${cardClass} min-w-0 px-3 py-2 max-sm:px-2`}>
      <dt className={`truncate text-xs font-semibold uppercase tracking-wide max-sm:text-[0.6875rem] max-sm:tracking-normal ${mutedText}`}>
        {short ? (
          <>
            <span className="sm:hidden">{short}</span>
            <span className="max-sm:hidden">{label}</span>
          </>
        ) : (
          label
        )}
      </dt>
      <dd className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-xl font-semibold tabular-nums max-sm:text-lg" data-testid={testId}>
          {value}
        </span>
        {/* A phone shows the numbers alone; the words are still read out. */}
        <span className={`text-xs max-sm:sr-only ${mutedText}`} data-testid={`${testId}-detail`}>
          {detail}
        </span>
      </dd>
    </div>
  );
}

/**
 * What share of the selected signups have a flag. When the flag is itself a filter the share says
 * nothing ("Verified 100%" under verified=true), so the figure names the filter instead.
 */
function flagDetail(part: number, total: number, filter: boolean | undefined, word: string): string {
  if (filter === true) return `all: filtered to ${word}`;
  if (filter === false) return `none: filtered to not ${word}`;
  return `${formatPercent(part, total)} of them`;
}

interface FiguresProps {
  counts: Promise<SignupCounts>;
  /** Null under a date range: "the last 7 days" beside another range would read as part of it. */
  lastWeek: Promise<number> | null;
  state: SignupTableParams;
}

/** Totals of the signups the current filters and search select, streamed in when the counts are ready. */
export async function Figures({ counts, lastWeek, state }: FiguresProps) {
  const [{ total, verified, referral, exact }, recent] = await Promise.all([counts, lastWeek]);
  const week = (value: string, detail: string) => (recent === null ? null : <Figure label="Last 7 days" short="7 days" value={value} detail={detail} testId="figure-last-7-days" />);
  const filtered = isFiltered(state);
  if (!exact) {
    // A search matched more signups than are counted: only that lower bound is known.
    const unknown = "narrow the search to see exact counts";
    return (
      <dl className={gridClass}>
        <Figure label="Matching signups" short="Matching" value={`at least ${formatCount(total)}`} detail="the search is counted up to there" testId="figure-total" />
        <Figure label="Verified" value="—" detail={unknown} testId="figure-verified" />
        <Figure label="Referral" value="—" detail={unknown} testId="figure-referral" />
        {week("—", unknown)}
      </dl>
    );
  }
  return (
    <dl className={gridClass}>
      <Figure label={filtered ? "Matching signups" : "Signups"} short={filtered ? "Matching" : undefined} value={formatCount(total)} detail={filtered ? "under the filters" : "all of the list"} testId="figure-total" />
      <Figure label="Verified" value={formatCount(verified)} detail={flagDetail(verified, total, state.verified, "verified")} testId="figure-verified" />
      <Figure label="Referral" value={formatCount(referral)} detail={flagDetail(referral, total, state.referral, "referrals")} testId="figure-referral" />
      {week(formatCount(recent ?? 0), filtered ? "of the matching" : "new signups")}
    </dl>
  );
}

export function FiguresSkeleton() {
  return (
    <div className={gridClass} role="status" aria-label="Loading figures">
      {Array.from({ length: 4 }, (_, index) => (
        <div key={index} className={`${cardClass} px-3 py-2`}>
          <Skeleton className="h-3 w-20" />
          <Skeleton className="mt-1.5 h-6 w-24" />
        </div>
      ))}
    </div>
  );
}
