"use client";

import {
  columnVisibilityFeature,
  createColumnHelper,
  rowPaginationFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnVisibilityState,
  type PaginationState,
  type ReactTable,
  type SortingState,
} from "@tanstack/react-table";
import { createContext, Suspense, use, useMemo, useState } from "react";
import { describeCustomInputs } from "@/components/custom-inputs";
import { formatCount, formatDateTime } from "@/components/format";
import { PendingNavigationProvider, TransitionLink, usePendingNavigation, useTransitionClick } from "@/components/pending-navigation";
import { SearchBox } from "@/components/search-box";
import { ariaSort, SortHeaderLink } from "@/components/sort-header";
import { buttonClass, focusRing, inputClass, linkClass, mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/domain/list-params";
import type { SignupCounts, SignupRow } from "@/lib/domain/signups/queries";
import type { SignupSort } from "@/lib/domain/sorting";
import { SignupDetails } from "./signup-details";
import { signupExportHref, signupTableHref, signupTableSearch } from "./table-url";

const features = tableFeatures({ rowSortingFeature, rowPaginationFeature, columnVisibilityFeature });
const helper = createColumnHelper<typeof features, SignupRow>();

const OpenDetails = createContext<(signup: SignupRow) => void>(() => {});

function EmailCell({ signup }: { signup: SignupRow }) {
  const open = use(OpenDetails);
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      className={`${focusRing} whitespace-nowrap rounded-sm text-left font-medium text-blue-700 underline-offset-2 hover:underline dark:text-blue-400`}
      onClick={(event) => {
        event.stopPropagation();
        open(signup);
      }}
    >
      {signup.email}
    </button>
  );
}

function YesNo({ value }: { value: boolean }) {
  return value ? (
    <span className="inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">Yes</span>
  ) : (
    <span className="inline-flex rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">No</span>
  );
}

function CustomInputsSummary({ inputs }: { inputs: SignupRow["customInputs"] }) {
  const entries = describeCustomInputs(inputs);
  const first = entries[0];
  if (!first) return <span className={mutedText}>—</span>;
  const text = `${first.key}: ${first.structured ? "{…}" : first.value}`;
  return (
    <span className="block max-w-[22rem] truncate" title={text}>
      {text}
      {entries.length > 1 ? <span className={mutedText}> +{entries.length - 1} more</span> : null}
    </span>
  );
}

const columns = helper.columns([
  helper.accessor("email", { header: "Email", enableHiding: false, cell: (info) => <EmailCell signup={info.row.original} /> }),
  helper.accessor("verified", { header: "Verified", enableSorting: false, cell: (info) => <YesNo value={info.getValue()} /> }),
  helper.accessor("referral", { header: "Referral", enableSorting: false, cell: (info) => <YesNo value={info.getValue()} /> }),
  helper.accessor("customInputs", {
    id: "custom_inputs",
    header: "Custom inputs",
    enableSorting: false,
    cell: (info) => <CustomInputsSummary inputs={info.getValue()} />,
  }),
  helper.accessor("createdAt", {
    id: "created_at",
    header: "Signed up (UTC)",
    cell: (info) => (
      <time className="whitespace-nowrap" dateTime={info.getValue().toISOString()}>
        {formatDateTime(info.getValue())}
      </time>
    ),
  }),
]);

/** How deep the table pages: `pages` at the current size, covering the first `rows` rows (lib/domain/list-params.ts). */
interface Reach {
  pages: number;
  rows: number;
}

interface SignupsTableProps {
  waitlistId: string;
  rows: SignupRow[];
  counts: Promise<SignupCounts>;
  state: SignupTableParams;
  pageSizes: readonly number[];
  reach: Reach;
}

export function SignupsTable(props: SignupsTableProps) {
  return (
    <PendingNavigationProvider>
      <SignupsTableView {...props} />
    </PendingNavigationProvider>
  );
}

function SignupsTableView({ waitlistId, rows, counts, state, pageSizes, reach }: SignupsTableProps) {
  const { isPending, navigate } = usePendingNavigation();
  const onNavigate = useTransitionClick();
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>({});
  const [selected, setSelected] = useState<SignupRow | null>(null);
  const sorting = useMemo<SortingState>(() => [{ id: state.sort, desc: state.dir === "desc" }], [state.sort, state.dir]);
  const pagination = useMemo<PaginationState>(() => ({ pageIndex: state.page - 1, pageSize: state.size }), [state.page, state.size]);
  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (row) => String(row.id),
    state: { sorting, pagination, columnVisibility },
    onColumnVisibilityChange: setColumnVisibility,
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
  });
  const href = (change: Partial<SignupTableParams>) => signupTableHref(waitlistId, state, change);
  const filtered = state.verified !== undefined || state.referral !== undefined || state.q !== undefined;
  const hidden = Object.fromEntries(signupTableSearch({ ...state, q: undefined, page: 1 }));

  return (
    <section aria-labelledby="signups-heading" className="mt-8">
      <h2 id="signups-heading" className="text-lg font-semibold">
        Signups
      </h2>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <SearchBox label="Search by email" placeholder="Search emails" value={state.q ?? ""} hrefFor={(q) => href({ q: q || undefined })} hidden={hidden} />
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex items-center gap-2 text-sm">
            <span>Rows per page</span>
            <select
              className={`${inputClass} py-1.5`}
              value={state.size}
              onChange={(event) => navigate(href({ size: Number(event.target.value) }))}
            >
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          </label>
          <ColumnMenu table={table} />
          <a href={signupExportHref(waitlistId, state)} download className={buttonClass}>
            Export CSV
          </a>
        </div>
      </div>

      <div className="mt-3 flex flex-wrap gap-x-6 gap-y-3">
        <FilterGroup
          label="Verified"
          current={state.verified}
          hrefFor={(value) => href({ verified: value })}
          counts={counts}
          pick={(c) => c.verifiedFacet}
          onNavigate={onNavigate}
        />
        <FilterGroup
          label="Referral"
          current={state.referral}
          hrefFor={(value) => href({ referral: value })}
          counts={counts}
          pick={(c) => c.referralFacet}
          onNavigate={onNavigate}
        />
        {filtered ? (
          <TransitionLink href={`/waitlists/${waitlistId}`} className={`${linkClass} self-end text-sm`}>
            Clear filters
          </TransitionLink>
        ) : null}
      </div>

      <p className={`mt-4 text-sm ${mutedText}`} aria-live="polite">
        {isPending ? (
          "Loading…"
        ) : (
          <Suspense fallback={<span>Counting signups…</span>}>
            <ShowingRange counts={counts} state={state} shown={rows.length} />
          </Suspense>
        )}
      </p>

      <OpenDetails value={setSelected}>
        <div
          className={`relative mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white transition-opacity dark:border-zinc-800 dark:bg-zinc-900 ${isPending ? "opacity-60" : ""}`}
          aria-busy={isPending}
        >
          <table className="w-full min-w-[760px] text-left text-sm">
            <caption className="sr-only">Signups, page {state.page}; activate an email to see all its details</caption>
            <thead className="border-b border-zinc-200 bg-zinc-50 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300">
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    return (
                      <th key={header.id} scope="col" aria-sort={header.column.getCanSort() ? ariaSort(sorted) : undefined} className="whitespace-nowrap px-4 py-3">
                        {header.column.getCanSort() ? (
                          <SortHeaderLink
                            label={String(header.column.columnDef.header)}
                            sorted={sorted}
                            next={header.column.getNextSortingOrder() || "asc"}
                            onNavigate={onNavigate}
                            href={href({ sort: header.column.id as SignupSort, dir: header.column.getNextSortingOrder() || "asc" })}
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
                <tr
                  key={row.id}
                  onClick={() => setSelected(row.original)}
                  className="cursor-pointer border-b border-zinc-100 last:border-0 hover:bg-zinc-50 dark:border-zinc-800/60 dark:hover:bg-zinc-800/40"
                >
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id} className="h-[45px] px-4 py-2 align-middle">
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 ? (
            <EmptyState waitlistId={waitlistId} filtered={filtered} page={state.page} reach={reach} firstPageHref={href({ page: 1 })} />
          ) : null}
        </div>
      </OpenDetails>

      <Suspense fallback={<nav aria-label="Pagination" className="mt-4 h-9" />}>
        <Pagination counts={counts} state={state} reach={reach} href={href} onNavigate={onNavigate} />
      </Suspense>

      <SignupDetails signup={selected} onClose={() => setSelected(null)} />
    </section>
  );
}

type Facet = { yes: number; no: number };

function FilterGroup({
  label,
  current,
  hrefFor,
  counts,
  pick,
  onNavigate,
}: {
  label: string;
  current: boolean | undefined;
  hrefFor: (value: boolean | undefined) => string;
  counts: Promise<SignupCounts>;
  pick: (counts: SignupCounts) => Facet;
  onNavigate: ReturnType<typeof useTransitionClick>;
}) {
  const options: { value: boolean | undefined; text: string; count: (facet: Facet) => number }[] = [
    { value: undefined, text: "Any", count: (facet) => facet.yes + facet.no },
    { value: true, text: "Yes", count: (facet) => facet.yes },
    { value: false, text: "No", count: (facet) => facet.no },
  ];
  const labelId = `filter-${label.toLowerCase()}`;
  return (
    <div role="group" aria-labelledby={labelId} className="flex flex-col gap-1">
      <span id={labelId} className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">
        {label}
      </span>
      <div className="inline-flex overflow-hidden rounded-md border border-zinc-300 dark:border-zinc-700">
        {options.map((option) => {
          const active = option.value === current;
          return (
            <a
              key={option.text}
              href={hrefFor(option.value)}
              onClick={onNavigate}
              aria-current={active ? "true" : undefined}
              className={`${focusRing} flex items-center gap-1.5 border-r border-zinc-300 px-3 py-1.5 text-sm last:border-r-0 dark:border-zinc-700 ${
                active ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "bg-white hover:bg-zinc-50 dark:bg-zinc-900 dark:hover:bg-zinc-800"
              }`}
            >
              <span>{option.text}</span>
              <span className={`tabular-nums text-xs ${active ? "" : mutedText}`} data-testid={`facet-${label.toLowerCase()}-${option.text.toLowerCase()}`}>
                <Suspense fallback="…">
                  <FacetCount counts={counts} pick={pick} count={option.count} />
                </Suspense>
              </span>
            </a>
          );
        })}
      </div>
    </div>
  );
}

function FacetCount({ counts, pick, count }: { counts: Promise<SignupCounts>; pick: (counts: SignupCounts) => Facet; count: (facet: Facet) => number }) {
  return formatCount(count(pick(use(counts))));
}

function ShowingRange({ counts, state, shown }: { counts: Promise<SignupCounts>; state: SignupTableParams; shown: number }) {
  const { total } = use(counts);
  const first = (state.page - 1) * state.size + 1;
  if (shown === 0) return <span data-testid="showing">{formatCount(total)} signups in total</span>;
  return (
    <span data-testid="showing">
      Showing {formatCount(first)}–{formatCount(first + shown - 1)} of {formatCount(total)}
    </span>
  );
}

function Pagination({
  counts,
  state,
  reach,
  href,
  onNavigate,
}: {
  counts: Promise<SignupCounts>;
  state: SignupTableParams;
  reach: Reach;
  href: (change: Partial<SignupTableParams>) => string;
  onNavigate: ReturnType<typeof useTransitionClick>;
}) {
  const { total } = use(counts);
  const pageCount = Math.max(1, Math.ceil(total / state.size));
  const lastPage = Math.min(pageCount, reach.pages);
  const capped = lastPage < pageCount;
  const page = state.page;
  const links: { label: string; text: string; target: number; enabled: boolean }[] = [
    { label: "First page", text: "« First", target: 1, enabled: page > 1 },
    { label: "Previous page", text: "‹ Previous", target: Math.min(page - 1, lastPage), enabled: page > 1 },
    { label: "Next page", text: "Next ›", target: page + 1, enabled: page < lastPage },
    capped
      ? { label: `Page ${formatCount(lastPage)}, the last that is shown`, text: `Page ${formatCount(lastPage)} »`, target: lastPage, enabled: page < lastPage }
      : { label: "Last page", text: "Last »", target: lastPage, enabled: page < lastPage },
  ];
  return (
    <nav aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <span className={mutedText}>
        Page {formatCount(Math.min(page, pageCount))} of {formatCount(pageCount)}
        {capped ? (
          <span data-testid="page-limit">
            {" "}
            (pages after {formatCount(lastPage)} are not shown: narrow the filters or the search, or reverse the sort)
          </span>
        ) : null}
      </span>
      <div className="flex flex-wrap gap-2">
        {links.map((link) =>
          link.enabled ? (
            <a key={link.label} href={href({ page: link.target })} onClick={onNavigate} aria-label={link.label} className={buttonClass}>
              {link.text}
            </a>
          ) : (
            <span key={link.label} aria-disabled="true" className={`${buttonClass} cursor-not-allowed opacity-50`}>
              <span aria-hidden="true">{link.text}</span>
              <span className="sr-only">{link.label} (not available)</span>
            </span>
          ),
        )}
      </div>
    </nav>
  );
}

function EmptyState({ waitlistId, filtered, page, reach, firstPageHref }: { waitlistId: string; filtered: boolean; page: number; reach: Reach; firstPageHref: string }) {
  if (page > reach.pages) {
    return (
      <div className="px-4 py-10 text-center" data-testid="beyond-reach">
        <p className="font-medium">Only the first {formatCount(reach.rows)} signups of a list can be paged through.</p>
        <p className="mt-2">
          To see others, narrow the filters or the search, or reverse the sort. The CSV export and the API return every signup.
        </p>
        <p className="mt-2">
          <TransitionLink href={firstPageHref} className={linkClass}>
            Go to the first page
          </TransitionLink>
        </p>
      </div>
    );
  }
  if (page > 1) {
    return (
      <div className="px-4 py-10 text-center">
        <p className="font-medium">This page is past the end of the list.</p>
        <p className="mt-2">
          <TransitionLink href={firstPageHref} className={linkClass}>
            Go to the first page
          </TransitionLink>
        </p>
      </div>
    );
  }
  return (
    <div className="px-4 py-10 text-center">
      <p className="font-medium">{filtered ? "No signups match these filters." : "This waitlist has no signups yet."}</p>
      {filtered ? (
        <p className="mt-2">
          <TransitionLink href={`/waitlists/${waitlistId}`} className={linkClass}>
            Clear filters
          </TransitionLink>
        </p>
      ) : null}
    </div>
  );
}

function ColumnMenu({ table }: { table: ReactTable<typeof features, SignupRow> }) {
  return (
    <details className="relative">
      <summary className={`${buttonClass} cursor-pointer list-none`}>Columns</summary>
      <div className="absolute right-0 z-10 mt-1 w-48 rounded-md border border-zinc-200 bg-white p-2 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
        <fieldset>
          <legend className="px-1 pb-1 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">Show columns</legend>
          {table
            .getAllLeafColumns()
            .filter((column) => column.getCanHide())
            .map((column) => (
              <label key={column.id} className="flex items-center gap-2 rounded px-1 py-1 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-800">
                <input type="checkbox" className={focusRing} checked={column.getIsVisible()} onChange={(event) => column.toggleVisibility(event.target.checked)} />
                {String(column.columnDef.header)}
              </label>
            ))}
        </fieldset>
      </div>
    </details>
  );
}

