import { notFound } from "next/navigation";
import { Suspense } from "react";
import { PendingNavigationProvider } from "@/components/pending-navigation";
import { requireSession, requestOrigin } from "@/lib/dashboard/auth";
import { later } from "@/lib/dashboard/defer";
import { dashboardScope, DASHBOARD_PAGE_SIZES, lastReachablePage, MAX_PAGED_ROWS, parseSignupTableParams } from "@/lib/domain/list-params";
import { cachedCountSignups, cachedSignupsPerDay } from "@/lib/domain/signups/cached-stats";
import { countSignupsSince } from "@/lib/domain/signups/counts";
import { inputFacetValues, inputFacets } from "@/lib/domain/signups/facets";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { ApiBox } from "../api-box";
import { ChartSection, ChartSkeleton } from "../chart-section";
import { chartWindow, weekAgo } from "../chart-window";
import { FilterPanel } from "../filter-panel";
import { Figures, FiguresSkeleton } from "../figures";
import { findWaitlist } from "../find-waitlist";
import { SignupsTable } from "../signups-table";
import { signupApiPath, signupCliCommand } from "../table-url";

/** How many values of a label a value search lists. */
const VALUE_SEARCH_LIMIT = 20;

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// The first rows come from an index and are in the first bytes; counts, figures, facets and the
// chart (aggregates over the filtered set) stream in after them.
export default async function WaitlistPage({ params, searchParams }: Props) {
  await requireSession();
  const waitlist = findWaitlist((await params).id);
  if (!waitlist) notFound();
  const state = parseSignupTableParams(await searchParams);
  const scope = dashboardScope(waitlist.id, state);

  const reachablePages = lastReachablePage(state.size);
  // A page past MAX_PAGED_ROWS runs no query: the table says why and how to reach those rows.
  const rows = state.page > reachablePages ? [] : listSignupRows({ scope, sort: state.sort, direction: state.dir, offset: (state.page - 1) * state.size, limit: state.size });
  const counts = later(() => cachedCountSignups(scope));
  const chart = chartWindow(state);
  const lastWeek = later(() => countSignupsSince(scope, weekAgo()));
  const perDay = later(() => cachedSignupsPerDay(scope, chart.start));
  const facets = later(() => inputFacets(scope));
  const { facet, facet_q: contains } = state;
  const valueSearch = facet && contains ? later(() => ({ label: facet, contains, values: inputFacetValues(scope, facet, contains, VALUE_SEARCH_LIMIT) })) : undefined;
  const apiUrl = (await requestOrigin()) + signupApiPath(waitlist.id, state);

  return (
    <PendingNavigationProvider>
      <div className="mt-4 grid gap-x-6 gap-y-4 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <FilterPanel waitlistId={waitlist.id} state={state} counts={counts} facets={facets} valueSearch={valueSearch} />
        <div className="min-w-0">
          <div className="grid gap-3 xl:grid-cols-[22rem_minmax(0,1fr)]">
            <section aria-label="Figures for the current filters">
              <Suspense fallback={<FiguresSkeleton />}>
                <Figures counts={counts} lastWeek={lastWeek} state={state} />
              </Suspense>
            </section>
            <Suspense fallback={<ChartSkeleton />}>
              <ChartSection perDay={perDay} window={chart} waitlistId={waitlist.id} state={state} />
            </Suspense>
          </div>
          <SignupsTable
            waitlistId={waitlist.id}
            rows={rows}
            counts={counts}
            state={state}
            pageSizes={DASHBOARD_PAGE_SIZES}
            reach={{ pages: reachablePages, rows: MAX_PAGED_ROWS }}
          />
          <ApiBox url={apiUrl} cli={signupCliCommand(waitlist.id, state)} />
        </div>
      </div>
    </PendingNavigationProvider>
  );
}
