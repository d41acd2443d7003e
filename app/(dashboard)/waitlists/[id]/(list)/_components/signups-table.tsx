"use client";

import { functionalUpdate, useTable, type ColumnVisibilityState, type RowSelectionState, type SortingState } from "@tanstack/react-table";
import { Suspense, use, useMemo, useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { dataTableFeatures } from "@/components/data-table/data-table-features";
import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import { DataTableViewOptions } from "@/components/data-table/data-table-view-options";
import { formatCount } from "@/components/format";
import { usePendingNavigation } from "@/components/pending-navigation";
import { SearchBox } from "@/components/search-box";
import { inputClass, mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { SIGNUP_FILTERS } from "@/lib/domain/signups/filter";
import type { SignupCounts } from "@/lib/domain/signups/counts";
import { signupPublicId } from "@/lib/domain/signups/id";
import type { SignupSort } from "@/lib/domain/sorting";
import { BulkActions } from "./bulk-actions";
import { AllMatching, selectColumn, SignupLinks, signupColumns } from "./signup-columns";
import { SignupDetails } from "./signup-details";
import type { SignupListRow } from "./signup-list-row";
import { ActiveFilters, activeFilterCount } from "./active-filters";
import { FiltersButton } from "./filters-drawer";
import { SignupsEmptyState } from "./signups-empty-state";
import { ExportLink } from "../../export/export-link";
import { filterToApiParams } from "@/lib/domain/signups/filter";
import { isFiltered, signupExportHref, signupTableHref, signupTableSearch, tableFilter } from "@/lib/dashboard/signup-table-url";

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
}

function signupPageHref(waitlistId: string, signup: SignupListRow): string {
  return `/waitlists/${waitlistId}/signups/${signupPublicId(signup.id)}`;
}

/** The toolbar, the active filters, one page of rows and the pagination (needs a PendingNavigationProvider). */
export function SignupsTable({ waitlistId, rows, counts, state, pageSizes, reach, admin, importHref }: SignupsTableProps) {
  const { isPending, navigate } = usePendingNavigation();
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>({});
  const [selected, setSelected] = useState<SignupListRow | null>(null);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [allMatching, setAllMatching] = useState(false);
  // Another page of rows starts with nothing selected.
  const [selectionRows, setSelectionRows] = useState(rows);
  if (selectionRows !== rows) {
    setSelectionRows(rows);
    setRowSelection({});
    setAllMatching(false);
  }
  const sorting = useMemo<SortingState>(() => [{ id: state.sort, desc: state.dir === "desc" }], [state.sort, state.dir]);
  const columns = useMemo(() => (admin ? [selectColumn, ...signupColumns] : signupColumns), [admin]);
  const table = useTable({
    features: dataTableFeatures,
    columns,
    data: rows,
    getRowId: (row) => String(row.id),
    state: { sorting, columnVisibility, rowSelection },
    onColumnVisibilityChange: setColumnVisibility,
    enableRowSelection: admin,
    onRowSelectionChange: (updater) => {
      // Changing a row's box leaves "all matching" for the rows checked.
      setRowSelection((current) => functionalUpdate(updater, current));
      setAllMatching(false);
    },
    manualSorting: true,
    enableSortingRemoval: false,
  });
  const href = (change: Partial<SignupTableParams>) => signupTableHref(waitlistId, state, change);
  const filtered = isFiltered(state);
  const links = useMemo(() => ({ open: setSelected, pageHref: (signup: SignupListRow) => signupPageHref(waitlistId, signup) }), [waitlistId]);
  const hidden = Object.fromEntries(signupTableSearch({ ...state, emailContains: undefined, facet_q: undefined, page: 1 }));

  return (
    <section id="signups" tabIndex={-1} aria-labelledby="signups-heading" className="mt-3 scroll-mt-2 focus:outline-none">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h2 id="signups-heading" className="text-lg font-semibold">
          Signups
        </h2>
        <div className="max-md:order-last max-md:basis-full md:contents">
          <SearchBox label="Search by email" placeholder="Search emails" value={state.emailContains ?? ""} hrefFor={(q) => href({ emailContains: q || undefined })} hidden={hidden} name={SIGNUP_FILTERS.emailContains.name} />
        </div>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <FiltersButton count={activeFilterCount(state)} />
          <ExportLink href={signupExportHref(waitlistId, state)} counts={counts} />
          <label className="flex items-center gap-2 text-sm">
            <span className="max-md:sr-only">Rows per page</span>
            <select className={`${inputClass} py-1.5`} value={state.size} onChange={(event) => navigate(href({ size: Number(event.target.value) }))}>
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
          <div className="max-md:hidden">
            <DataTableViewOptions table={table} />
          </div>
        </div>
      </div>
      <ActiveFilters waitlistId={waitlistId} state={state} />
      {admin && rows.length > 0 ? (
        <BulkActions
          waitlistId={waitlistId}
          filterFields={Object.fromEntries(filterToApiParams(tableFilter(state)))}
          returnHref={href({})}
          counts={counts}
          selected={Object.values(rowSelection).filter(Boolean).length}
          pageSelected={table.getIsAllPageRowsSelected()}
          rowsOnPage={rows.length}
          allMatching={allMatching}
          onAllMatching={setAllMatching}
          onClear={() => {
            setRowSelection({});
            setAllMatching(false);
          }}
        />
      ) : null}

      <p className={`mt-2 text-sm ${mutedText}`} aria-live="polite">
        {isPending ? (
          "Loading…"
        ) : (
          <Suspense fallback={<span>Counting signups…</span>}>
            <ShowingRange counts={counts} state={state} shown={rows.length} />
          </Suspense>
        )}
      </p>

      <SignupLinks value={links}>
        <AllMatching value={allMatching}>
          <DataTable
            table={table}
            caption={`Signups, page ${state.page}; activate an email to see all its details`}
            sortHref={(column, dir) => href({ sort: column as SignupSort, dir })}
            minWidthClass="md:min-w-[760px]"
            cardsBelowMd
            headerCellClassName="whitespace-nowrap px-4 py-3"
            cellClassName="h-[45px] px-4 py-2 align-middle"
            onRowClick={setSelected}
            empty={<SignupsEmptyState clearHref={`/waitlists/${waitlistId}`} filtered={filtered} page={state.page} reach={reach} firstPageHref={href({ page: 1 })} importHref={importHref} />}
          />
        </AllMatching>
      </SignupLinks>

      <Suspense fallback={<nav aria-label="Pagination" className="mt-4 h-9" />}>
        <SignupsPagination counts={counts} state={state} maxPage={reach.pages} hrefForPage={(page) => href({ page })} />
      </Suspense>

      <SignupDetails signup={selected} pageHref={selected ? signupPageHref(waitlistId, selected) : undefined} canErase={admin} onClose={() => setSelected(null)} />
    </section>
  );
}

function ShowingRange({ counts, state, shown }: { counts: Promise<SignupCounts>; state: SignupTableParams; shown: number }) {
  const { total, exact } = use(counts);
  // An inexact total is SEARCH_COUNT_CAP, a lower bound.
  const of = exact ? formatCount(total) : `at least ${formatCount(total)}`;
  const first = (state.page - 1) * state.size + 1;
  if (shown === 0) return <span data-testid="showing">{of} signups in total</span>;
  return (
    <>
      <span data-testid="showing">
        Showing {formatCount(first)}–{formatCount(first + shown - 1)} of {of}
      </span>
      {exact ? null : <span> (the search matches too many signups to count: narrow the search to see exact counts)</span>}
    </>
  );
}

/** The pagination, once the total is counted. */
function SignupsPagination({ counts, state, maxPage, hrefForPage }: { counts: Promise<SignupCounts>; state: SignupTableParams; maxPage: number; hrefForPage: (page: number) => string }) {
  const { total, exact } = use(counts);
  return <DataTablePagination page={state.page} pageSize={state.size} rowCount={total} rowCountIsLowerBound={!exact} maxPage={maxPage} hrefForPage={hrefForPage} />;
}
