import { notFound } from "next/navigation";
import { Suspense } from "react";
import { DoneNotice } from "@/components/done-notice";
import { statusDoneMessages } from "@/lib/dashboard/status-done";
import { erasedDataStillOnDisk } from "@/lib/domain/signups/erase";
import { PendingNavigationProvider } from "@/components/pending-navigation";
import { requireSession, requestOrigin, sessionIsAdmin } from "@/lib/dashboard/auth";
import { readInBackground } from "@/lib/dashboard/read-pool-client";
import { lastReachablePage, MAX_PAGED_ROWS, parseSignupTableParams } from "@/lib/dashboard/signup-table";
import { DASHBOARD_PAGE_SIZES } from "@/lib/dashboard/signup-table-defaults";
import { cutAt } from "@/lib/domain/signups/counts";
import { tableScope } from "@/lib/dashboard/signup-table-url";
import { ApiBox } from "./_components/api-box";
import { ChartSection, ChartSkeleton } from "./_components/chart-section";
import { chartWindow, weekAgo, windowEnd } from "./_components/chart-window";
import { FilterPanel } from "./_components/filter-panel";
import { Figures, FiguresSkeleton } from "./_components/figures";
import { findWaitlist } from "../find-waitlist";
import { milestonesOf } from "@/lib/domain/milestones/store";
import { getInvitationEmail } from "@/lib/domain/emails/invitation";
import { toSignupListRow } from "./_components/signup-list-row";
import { SignupsTable } from "./_components/signups-table";
import { TopReferrers, TOP_REFERRERS } from "./_components/top-referrers";
import { LaunchChecklist } from "./_components/launch-checklist";
import { env } from "@/lib/core/env";
import { signupApiPath, signupCliCommand } from "@/lib/dashboard/signup-table-url";

/** How many values of a facet a value search lists. */
const VALUE_SEARCH_LIMIT = 20;

const DONE_MESSAGES = {
  created: "The waitlist was created.",
  updated: "The waitlist was saved.",
  erased: "The signup was erased.",
  "erased-on-disk": `The signup was erased. ${erasedDataStillOnDisk()}`,
};

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// Every read runs on a reader thread (lib/server/read-pool.ts), never on the thread serving /v1. The
// rows come first; counts, figures, facets and the chart (aggregates over the filtered set) stream in.
export default async function WaitlistPage({ params, searchParams }: Props) {
  const session = await requireSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  const query = await searchParams;
  const state = parseSignupTableParams(query);
  const scope = tableScope(waitlist.id, state);

  const reachablePages = lastReachablePage(state.size);
  // A page past MAX_PAGED_ROWS runs no query: the table says why and how to reach those rows.
  const pageRows =
    state.page > reachablePages ? Promise.resolve([]) : readInBackground("listSignupRows", { scope, sort: state.sort, direction: state.dir, offset: (state.page - 1) * state.size, limit: state.size });
  const counts = readInBackground("countSignups", scope);
  const chart = chartWindow(state);
  const charted = cutAt(scope, windowEnd(chart));
  const lastWeek = chart.recent ? readInBackground("countSignupsSince", charted, weekAgo()) : null;
  const perDay = readInBackground("signupsPerDay", charted, chart.start);
  const facets = readInBackground("inputFacets", scope);
  const flagCounts = readInBackground("flagFacet", scope);
  const sources = readInBackground("sourceFacets", scope);
  const milestoneLabels = (await milestonesOf(waitlist.id)).map((milestone) => milestone.label);
  const milestoneCounts = milestoneLabels.length === 0 ? undefined : readInBackground("milestoneFacet", scope).then((facet) => Object.fromEntries(facet.map(({ label, count }) => [label, count])));
  const { facet, facet_q: contains } = state;
  const valueSearch = facet && contains ? readInBackground("searchFacetValues", scope, facet, contains, VALUE_SEARCH_LIMIT).then((values) => ({ facet, contains, values })) : undefined;
  const filteredLabels = state.inputs.map((input) => input.label);
  const clock = { expiryDays: (await getInvitationEmail(waitlist.id)).inviteExpiryDays };
  const rows = (await pageRows).map((row) => toSignupListRow(row, clock, filteredLabels));
  const apiUrl = (await requestOrigin()) + signupApiPath(waitlist.id, state);
  const referrals = readInBackground("referralPanel", waitlist.id, TOP_REFERRERS);
  const admin = sessionIsAdmin(session);
  const launchSteps = admin ? readInBackground("launchSteps", waitlist.id, env().SMTP_URL !== undefined) : undefined;

  return (
    <PendingNavigationProvider>
      <DoneNotice done={query.done} messages={{ ...DONE_MESSAGES, ...statusDoneMessages(query.changed) }} />
      <div className="mt-4 grid gap-x-6 gap-y-4 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <FilterPanel waitlistId={waitlist.id} state={state} counts={counts} facets={facets} valueSearch={valueSearch} flagCounts={flagCounts} milestones={milestoneCounts && { labels: milestoneLabels, counts: milestoneCounts }} sources={sources} />
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
            admin={admin}
            importHref={admin ? `/waitlists/${waitlist.id}/import` : undefined}
            joinHref={admin ? `/waitlists/${waitlist.id}/join` : undefined}
          />
          {/* Below the table: a new list's table is short, and a busy list's rows stay in the first screen. */}
          {launchSteps ? (
            <Suspense fallback={null}>
              <LaunchChecklist waitlistId={waitlist.id} steps={launchSteps} />
            </Suspense>
          ) : null}
          <ApiBox url={apiUrl} cli={signupCliCommand(waitlist.id, state)} />
          <Suspense fallback={null}>
            <TopReferrers waitlistId={waitlist.id} referrals={referrals} />
          </Suspense>
        </div>
      </div>
    </PendingNavigationProvider>
  );
}
