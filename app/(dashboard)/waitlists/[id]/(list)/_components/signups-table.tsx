"use client";

import { useTable, type ColumnVisibilityState, type SortingState } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { dataTableFeatures } from "@/components/data-table/data-table-features";
import { usePendingNavigation } from "@/components/pending-navigation";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { isFiltered, signupTableHref, tableFilter } from "@/lib/dashboard/signup-table-url";
import type { SignupCounts } from "@/lib/domain/signups/counts";
import { filterToApiParams } from "@/lib/domain/signups/filter";
import type { SignupSort } from "@/lib/domain/sorting";
import { ActiveFilters } from "./active-filters";
import { BulkActions } from "./bulk-actions";
import { ShowingRange } from "./showing-range";
import { AllMatching, selectColumn, SignupLinks, signupColumns } from "./signup-columns";
import { SignupDetails } from "./signup-details";
import { signupPageHref, type SignupListRow } from "./signup-list-row";
import { SignupsEmptyState } from "./signups-empty-state";
import { SignupsPagination } from "./signups-pagination";
import { SignupsToolbar } from "./signups-toolbar";
import { useRowSelection } from "./use-row-selection";

/** How deep the table pages: `pages` at the current size, covering the first `rows` rows (lib/domain/list-params.ts). */
interface Reach {
  pages: number;
  rows: number;
}

interface SignupsTableProps {
  waitlistId: string;
  rows: SignupListRow[];
  counts: Promise<SignupCounts>;
  state: SignupTableParams;
  pageSizes: readonly number[];
  reach: Reach;
  /** An admin session: rows can be selected and acted on, and the details dialog links to erasing the signup. */
  admin: boolean;
  /** The import page, for an admin: the empty waitlist's call to action. */
  importHref?: string;
  /** For an admin: where to open joining. */
  joinHref?: string;
}

/** The toolbar, the active filters, one page of rows and the pagination (needs a PendingNavigationProvider). */
export function SignupsTable({ waitlistId, rows, counts, state, pageSizes, reach, admin, importHref, joinHref }: SignupsTableProps) {
  const { isPending } = usePendingNavigation();
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>({});
  const [selected, setSelected] = useState<SignupListRow | null>(null);
  const selection = useRowSelection(rows);
  const sorting = useMemo<SortingState>(() => [{ id: state.sort, desc: state.dir === "desc" }], [state.sort, state.dir]);
  const columns = useMemo(() => (admin ? [selectColumn, ...signupColumns] : signupColumns), [admin]);
  const table = useTable({
    features: dataTableFeatures,
    columns,
    data: rows,
    getRowId: (row) => String(row.id),
    state: { sorting, columnVisibility, rowSelection: selection.rowSelection },
    onColumnVisibilityChange: setColumnVisibility,
    enableRowSelection: admin,
    onRowSelectionChange: selection.onRowSelectionChange,
    manualSorting: true,
    enableSortingRemoval: false,
  });
  const href = (change: Partial<SignupTableParams>) => signupTableHref(waitlistId, state, change);
  const links = useMemo(() => ({ open: setSelected, pageHref: (signup: SignupListRow) => signupPageHref(waitlistId, signup) }), [waitlistId]);

  return (
    <section id="signups" tabIndex={-1} aria-labelledby="signups-heading" className="mt-3 scroll-mt-2 focus:outline-none">
      <SignupsToolbar waitlistId={waitlistId} state={state} counts={counts} pageSizes={pageSizes} table={table} />
      <ActiveFilters waitlistId={waitlistId} state={state} />
      {admin && rows.length > 0 ? (
        <BulkActions
          waitlistId={waitlistId}
          filterFields={Object.fromEntries(filterToApiParams(tableFilter(state)))}
          returnHref={href({})}
          counts={counts}
          selected={selection.selectedCount}
          pageSelected={table.getIsAllPageRowsSelected()}
          rowsOnPage={rows.length}
          allMatching={selection.allMatching}
          onAllMatching={selection.setAllMatching}
          onClear={selection.clear}
        />
      ) : null}

      <ShowingRange counts={counts} state={state} shown={rows.length} pending={isPending} />

      <SignupLinks value={links}>
        <AllMatching value={selection.allMatching}>
          <DataTable
            table={table}
            caption={`Signups, page ${state.page}; activate an email to see all its details`}
            sortHref={(column, dir) => href({ sort: column as SignupSort, dir })}
            minWidthClass="md:min-w-[760px]"
            cardsBelowMd
            headerCellClassName="whitespace-nowrap px-4 py-3"
            cellClassName="h-[45px] px-4 py-2 align-middle"
            onRowClick={setSelected}
            empty={<SignupsEmptyState clearHref={`/waitlists/${waitlistId}`} filtered={isFiltered(state)} page={state.page} reach={reach} firstPageHref={href({ page: 1 })} importHref={importHref} joinHref={joinHref} />}
          />
        </AllMatching>
      </SignupLinks>

      <SignupsPagination counts={counts} state={state} maxPage={reach.pages} hrefForPage={(page) => href({ page })} />

      <SignupDetails signup={selected} pageHref={selected ? signupPageHref(waitlistId, selected) : undefined} canErase={admin} onClose={() => setSelected(null)} />
    </section>
  );
}
