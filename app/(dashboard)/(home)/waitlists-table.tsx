"use client";

import { useTable, type SortingState } from "@tanstack/react-table";
import Link from "next/link";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { dataTableFeatures } from "@/components/data-table/data-table-features";
import { formatCount } from "@/components/format";
import { PendingNavigationProvider, usePendingNavigation } from "@/components/pending-navigation";
import { SearchBox } from "@/components/search-box";
import { focusRing, linkClass, mutedText } from "@/components/styles";
import type { WaitlistTableParams } from "@/lib/dashboard/waitlist-table";
import type { WaitlistSummarySort } from "@/lib/domain/sorting";
import type { WaitlistSummary } from "@/lib/domain/waitlists/queries";
import { overviewHref } from "./overview-url";
import { waitlistColumns } from "./waitlist-columns";

export function WaitlistsTable(props: { waitlists: WaitlistSummary[]; state: WaitlistTableParams }) {
  return (
    <PendingNavigationProvider>
      <WaitlistsTableView {...props} />
    </PendingNavigationProvider>
  );
}

function WaitlistsTableView({ waitlists, state }: { waitlists: WaitlistSummary[]; state: WaitlistTableParams }) {
  const { isPending } = usePendingNavigation();
  const sorting = useMemo<SortingState>(() => [{ id: state.sort, desc: state.dir === "desc" }], [state.sort, state.dir]);
  const table = useTable({ features: dataTableFeatures, columns: waitlistColumns, data: waitlists, state: { sorting }, manualSorting: true, enableSortingRemoval: false });

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
      <DataTable
        table={table}
        caption={`Waitlists, sorted by ${state.sort} ${state.dir === "asc" ? "ascending" : "descending"}`}
        sortHref={(column, dir) => overviewHref({ ...state, sort: column as WaitlistSummarySort, dir })}
        minWidthClass="min-w-[720px]"
        headerCellClassName="px-4 py-3"
        cellClassName="px-4 py-3 align-top"
        empty={
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
        }
      />
    </div>
  );
}
