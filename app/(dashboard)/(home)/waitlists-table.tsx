"use client";

import { columnVisibilityFeature, createColumnHelper, rowSortingFeature, tableFeatures, useTable, type SortingState } from "@tanstack/react-table";
import Link from "next/link";
import { useMemo } from "react";
import { formatCount, formatDate, formatPercent } from "@/components/format";
import { PendingNavigationProvider, usePendingNavigation, useTransitionClick } from "@/components/pending-navigation";
import { SearchBox } from "@/components/search-box";
import { ariaSort, SortHeaderLink } from "@/components/sort-header";
import { focusRing, linkClass, mutedText } from "@/components/styles";
import { WebsiteLink } from "@/components/website-link";
import type { WaitlistTableParams } from "@/lib/domain/list-params";
import type { WaitlistSummarySort } from "@/lib/domain/sorting";
import type { WaitlistSummary } from "@/lib/domain/waitlists/queries";
import { overviewHref } from "./overview-url";

const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature });
const helper = createColumnHelper<typeof features, WaitlistSummary>();

const columns = helper.columns([
  helper.accessor("name", {
    header: "Name",
    cell: (info) => (
      <Link href={`/waitlists/${info.row.original.id}`} className={`${linkClass} font-medium`}>
        {info.getValue()}
      </Link>
    ),
  }),
  helper.accessor("website", { header: "Website", enableSorting: false, cell: (info) => <WebsiteLink website={info.getValue()} /> }),
  helper.accessor("total", { header: "Signups", cell: (info) => formatCount(info.getValue()) }),
  helper.accessor((row) => row.verified, {
    id: "verified",
    header: "Verified",
    cell: (info) => formatPercent(info.getValue(), info.row.original.total),
  }),
  helper.accessor((row) => row.referral, {
    id: "referral",
    header: "Referral",
    cell: (info) => formatPercent(info.getValue(), info.row.original.total),
  }),
  helper.accessor("newestSignupAt", {
    id: "newest",
    header: "Newest signup",
    cell: (info) => {
      const value = info.getValue();
      return value ? <time dateTime={value.toISOString()}>{formatDate(value)}</time> : <span className={mutedText}>None yet</span>;
    },
  }),
]);

const NUMERIC = new Set(["total", "verified", "referral"]);

export function WaitlistsTable(props: { waitlists: WaitlistSummary[]; state: WaitlistTableParams }) {
  return (
    <PendingNavigationProvider>
      <WaitlistsTableView {...props} />
    </PendingNavigationProvider>
  );
}

function WaitlistsTableView({ waitlists, state }: { waitlists: WaitlistSummary[]; state: WaitlistTableParams }) {
  const { isPending } = usePendingNavigation();
  const onNavigate = useTransitionClick();
  const sorting = useMemo<SortingState>(() => [{ id: state.sort, desc: state.dir === "desc" }], [state.sort, state.dir]);
  const table = useTable({ features, columns, data: waitlists, state: { sorting }, manualSorting: true, enableSortingRemoval: false });

  return (
    <div className="mt-4">
      <SearchBox
        label="Search by name"
        placeholder="Search waitlists by name"
        value={state.q ?? ""}
        hrefFor={(q) => overviewHref({ ...state, q: q || undefined })}
      />
      <p className={`mt-3 text-sm ${mutedText}`} aria-live="polite">
        {isPending ? "Loading…" : `${formatCount(waitlists.length)} waitlist${waitlists.length === 1 ? "" : "s"}${state.q ? ` matching “${state.q}”` : ""}`}
      </p>
      <div className={`relative mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white transition-opacity dark:border-zinc-800 dark:bg-zinc-900 ${isPending ? "opacity-60" : ""}`} aria-busy={isPending}>
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">Waitlists, sorted by {state.sort} {state.dir === "asc" ? "ascending" : "descending"}</caption>
          <thead className="border-b border-zinc-200 bg-zinc-50 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={header.column.getCanSort() ? ariaSort(sorted) : undefined}
                      className={`px-4 py-3 ${NUMERIC.has(header.column.id) ? "text-right" : ""}`}
                    >
                      {header.column.getCanSort() ? (
                        <SortHeaderLink
                          label={String(header.column.columnDef.header)}
                          sorted={sorted}
                          next={header.column.getNextSortingOrder() || "asc"}
                          onNavigate={onNavigate}
                          href={overviewHref({ ...state, sort: header.column.id as WaitlistSummarySort, dir: header.column.getNextSortingOrder() || "asc" })}
                        />
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="border-b border-zinc-100 last:border-0 hover:bg-zinc-50 dark:border-zinc-800/60 dark:hover:bg-zinc-800/40">
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={`px-4 py-3 align-top ${NUMERIC.has(cell.column.id) ? "text-right tabular-nums" : ""} ${cell.column.id === "name" ? "max-w-xs break-words" : ""}`}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {waitlists.length === 0 ? (
          <div className="px-4 py-10 text-center">
            <p className="font-medium">{state.q ? "No waitlist matches this search." : "There are no waitlists yet."}</p>
            {state.q ? (
              <p className="mt-2">
                <Link href="/" className={`${focusRing} ${linkClass}`}>
                  Clear search
                </Link>
              </p>
            ) : (
              <p className={`mt-2 text-sm ${mutedText}`}>The operator creates them with the command-line tool.</p>
            )}
          </div>
        ) : null}
      </div>
    </div>
  );
}
