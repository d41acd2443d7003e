import { formatCount, formatDate } from "@/components/format";
import { Skeleton } from "@/components/skeleton";
import { cardClass, mutedText } from "@/components/styles";
import { DAY_MS } from "@/lib/core/time";
import { SEARCH_COUNT_CAP } from "@/lib/domain/signups/access";
import { SignupsChart, type DayCount } from "./signups-chart";

export const CHART_DAYS = 90;

/**
 * `weekAgo`: seven days before now (for "last 7 days"); `start`: the first instant of the UTC day
 * 89 days before today, so the chart shows 90 whole days including today.
 */
export function periodStarts(now = new Date()) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { weekAgo: new Date(now.getTime() - 7 * DAY_MS), start: new Date(today - (CHART_DAYS - 1) * DAY_MS) };
}

/** Every day of the window, with zero for days without signups. */
function fillDays(counts: DayCount[], start: Date): DayCount[] {
  const byDay = new Map(counts.map((entry) => [entry.day, entry.count]));
  return Array.from({ length: CHART_DAYS }, (_, index) => {
    const day = new Date(start.getTime() + index * DAY_MS).toISOString().slice(0, 10);
    return { day, count: byDay.get(day) ?? 0 };
  });
}

export async function ChartSection({ perDay, start }: { perDay: Promise<DayCount[] | null>; start: Date }) {
  const counted = await perDay;
  if (counted === null) {
    return (
      <p className={`${cardClass} p-4 text-sm ${mutedText}`} data-testid="chart-summary">
        The search matches more than {formatCount(SEARCH_COUNT_CAP)} signups: narrow it to see them per day.
      </p>
    );
  }
  const days = fillDays(counted, start);
  const total = days.reduce((sum, entry) => sum + entry.count, 0);
  const busiest = days.reduce((best, entry) => (entry.count > best.count ? entry : best), days[0]!);
  const summary =
    total === 0
      ? `No signups in the last ${CHART_DAYS} days for the current filters.`
      : `${formatCount(total)} signups in the last ${CHART_DAYS} days for the current filters; the busiest day was ${formatDate(new Date(`${busiest.day}T00:00:00Z`))} with ${formatCount(busiest.count)}.`;
  return (
    <figure className={`${cardClass} p-4`}>
      <figcaption>
        <span className="text-sm font-semibold">Signups per day, last {CHART_DAYS} days (UTC)</span>
        <span className={`block text-sm ${mutedText}`} data-testid="chart-summary">
          {summary}
        </span>
      </figcaption>
      <div className="mt-3">
        <SignupsChart days={days} summary={`Bar chart: ${summary}`} />
      </div>
    </figure>
  );
}

export function ChartSkeleton() {
  return (
    <div className={`${cardClass} p-4`} role="status" aria-label="Loading chart">
      <Skeleton className="h-4 w-64" />
      <Skeleton className="mt-2 h-4 w-80 max-w-full" />
      <Skeleton className="mt-3 h-56 w-full" />
    </div>
  );
}
