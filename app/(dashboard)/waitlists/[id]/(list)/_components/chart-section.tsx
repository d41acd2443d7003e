import { formatCount, formatDate } from "@/components/format";
import { Skeleton } from "@/components/skeleton";
import { cardClass, mutedText } from "@/components/styles";
import { DAY_MS } from "@/lib/core/time";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { SEARCH_COUNT_CAP } from "@/lib/domain/signups/access";
import { DEFAULT_CHART_DAYS, type ChartWindow } from "./chart-window";
import { SignupsChart, type DayCount } from "./signups-chart";

/** Every day of the window, with zero for days without signups. */
function fillDays(counts: DayCount[], window: ChartWindow): DayCount[] {
  const byDay = new Map(counts.map((entry) => [entry.day, entry.count]));
  return Array.from({ length: window.days }, (_, index) => {
    const day = new Date(window.start.getTime() + index * DAY_MS).toISOString().slice(0, 10);
    return { day, count: byDay.get(day) ?? 0 };
  });
}

function period(window: ChartWindow, days: DayCount[]): string {
  if (window.recent) return `in the last ${DEFAULT_CHART_DAYS} days`;
  const first = formatDate(new Date(`${days[0]!.day}T00:00:00Z`));
  const last = formatDate(new Date(`${days.at(-1)!.day}T00:00:00Z`));
  return first === last ? `on ${first}` : `from ${first} to ${last}${window.clipped ? " (the last days of the range)" : ""}`;
}

interface ChartSectionProps {
  /** Null when an email search matches more than SEARCH_COUNT_CAP signups: they are not counted per day. */
  perDay: Promise<DayCount[] | null>;
  window: ChartWindow;
  waitlistId: string;
  state: SignupTableParams;
}

export async function ChartSection({ perDay, window, waitlistId, state }: ChartSectionProps) {
  const counted = await perDay;
  if (counted === null) {
    return (
      <p className={`${cardClass} flex h-full items-center px-4 py-3 text-sm ${mutedText}`} data-testid="chart-summary">
        The search matches more than {formatCount(SEARCH_COUNT_CAP)} signups: narrow the search to see them per day.
      </p>
    );
  }
  const days = fillDays(counted, window);
  const today = new Date().toISOString().slice(0, 10);
  const partial = days.find((entry) => entry.day === today);
  const total = days.reduce((sum, entry) => sum + entry.count, 0);
  const busiest = days.reduce((best, entry) => (entry.count > best.count ? entry : best), days[0]!);
  const summary =
    total === 0
      ? `No signups ${period(window, days)} for the current filters.`
      : `${formatCount(total)} signups ${period(window, days)} for the current filters; the busiest day was ${formatDate(new Date(`${busiest.day}T00:00:00Z`))} with ${formatCount(busiest.count)}.`;
  const partialNote = partial ? ` Today is not over: its bar (${formatCount(partial.count)} so far) is drawn lighter and dashed.` : "";
  return (
    <figure className={`${cardClass} flex h-full flex-col px-4 py-3`}>
      <figcaption className="text-xs">
        <span className="font-semibold">Signups per day (UTC)</span>
        <span className={`max-sm:hidden ${mutedText}`}> · click a bar for that day, drag across bars for a range, or use the arrow keys</span>
        <span className={`block max-sm:line-clamp-2 ${mutedText}`} data-testid="chart-summary">
          {summary}
          {partial ? <span data-testid="chart-partial">{partialNote}</span> : null}
        </span>
      </figcaption>
      <div className="mt-2 min-h-0 flex-1">
        <SignupsChart days={days} summary={`Bar chart: ${summary}${partialNote}`} partialDay={partial?.day} waitlistId={waitlistId} state={state} />
      </div>
    </figure>
  );
}

export function ChartSkeleton() {
  return (
    <div className={`${cardClass} px-4 py-3`} role="status" aria-label="Loading chart">
      <Skeleton className="h-3 w-64" />
      <Skeleton className="mt-1.5 h-3 w-80 max-w-full" />
      <Skeleton className="mt-2 h-28 w-full" />
    </div>
  );
}
