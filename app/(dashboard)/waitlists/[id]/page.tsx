import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireSession, requestOrigin } from "@/lib/dashboard/auth";
import { readInBackground } from "@/lib/dashboard/background";
import { DASHBOARD_PAGE_SIZES, lastReachablePage, MAX_PAGED_ROWS, parseSignupTableParams } from "@/lib/domain/list-params";
import { type SignupScope } from "@/lib/domain/signups/filter";
import { ApiBox } from "./api-box";
import { ChartSection, ChartSkeleton, periodStarts } from "./chart-section";
import { Figures, FiguresSkeleton } from "./figures";
import { findWaitlist } from "./find-waitlist";
import { SignupsTable } from "./signups-table";
import { signupApiPath } from "./table-url";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// The first rows come from an index and are in the first bytes; counts, figures and the chart
// (full scans of the filtered set on a large list) stream in after them.
export default async function WaitlistPage({ params, searchParams }: Props) {
  await requireSession();
  const waitlist = findWaitlist((await params).id);
  if (!waitlist) notFound();
  const state = parseSignupTableParams(await searchParams);
  const scope: SignupScope = { waitlistId: waitlist.id, verified: state.verified, referral: state.referral, emailContains: state.q };

  const reachablePages = lastReachablePage(state.size);
  // A page past MAX_PAGED_ROWS runs no query: the table says why and how to reach those rows.
  const pageRows = state.page > reachablePages ? Promise.resolve([]) : readInBackground("listSignupRows", { scope, sort: state.sort, direction: state.dir, offset: (state.page - 1) * state.size, limit: state.size });
  const counts = readInBackground("countSignups", scope);
  const { weekAgo, start } = periodStarts();
  const lastWeek = readInBackground("countSignupsSince", scope, weekAgo);
  const perDay = readInBackground("signupsPerDay", scope, start);
  const rows = await pageRows;
  const apiUrl = (await requestOrigin()) + signupApiPath(waitlist.id, state);

  return (
    <>
      <section aria-label="Figures for the current filters" className="mt-6">
        <Suspense fallback={<FiguresSkeleton />}>
          <Figures counts={counts} lastWeek={lastWeek} />
        </Suspense>
      </section>
      <div className="mt-4">
        <Suspense fallback={<ChartSkeleton />}>
          <ChartSection perDay={perDay} start={start} />
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
      <ApiBox url={apiUrl} searchActive={state.q !== undefined} />
    </>
  );
}
