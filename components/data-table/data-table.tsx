"use client";

import { FlexRender, type ReactTable, type RowData } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { usePendingNavigation, useTransitionClick } from "@/components/pending-navigation";
import { DataTableColumnHeader } from "./data-table-column-header";
import type { DataTableFeatures } from "./data-table-features";

interface DataTableProps<TData extends RowData> {
  table: ReactTable<DataTableFeatures, TData>;
  /** For screen readers only. */
  caption: string;
  /** The view sorted by a column, for its header link. */
  sortHref: (columnId: string, direction: "asc" | "desc") => string;
  /** A Tailwind min-width: narrower screens scroll the table sideways inside its frame. */
  minWidthClass: string;
  headerCellClassName: string;
  cellClassName: string;
  onRowClick?: (row: TData) => void;
  /** Shown under the header when there are no rows. */
  empty: ReactNode;
  /** Below 768 px each row is a card (its cells wrap in a line), the header a line of its sort links. */
  cardsBelowMd?: boolean;
}

const CARDS = {
  table: "max-md:block",
  head: "max-md:block [&_tr]:max-md:flex [&_tr]:max-md:justify-between",
  body: "max-md:block",
  row: "max-md:flex max-md:flex-wrap max-md:items-center max-md:gap-x-2 max-md:gap-y-1 max-md:px-4 max-md:py-2.5",
  cell: "max-md:block max-md:h-auto max-md:p-0",
};
const NO_CARDS = { table: "", head: "", body: "", row: "", cell: "" };

/** The table of one server-rendered page of rows; dims while the next page is on its way (needs a PendingNavigationProvider). */
export function DataTable<TData extends RowData>({ table, caption, sortHref, minWidthClass, headerCellClassName, cellClassName, onRowClick, empty, cardsBelowMd = false }: DataTableProps<TData>) {
  const cards = cardsBelowMd ? CARDS : NO_CARDS;
  const { isPending } = usePendingNavigation();
  const onNavigate = useTransitionClick();
  const rows = table.getRowModel().rows;
  return (
    <div
      className={`relative mt-2 overflow-x-auto rounded-lg border border-zinc-200 bg-white transition-opacity dark:border-zinc-800 dark:bg-zinc-900 ${isPending ? "opacity-60" : ""}`}
      aria-busy={isPending}
    >
      <table className={`w-full ${minWidthClass} text-left text-sm ${cards.table}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className={`border-b border-zinc-200 bg-zinc-50 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300 ${cards.head}`}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <DataTableColumnHeader key={header.id} header={header} className={headerCellClassName} sortHref={sortHref} onNavigate={onNavigate} />
              ))}
            </tr>
          ))}
        </thead>
        <tbody className={cards.body}>
          {rows.map((row) => (
            <tr
              key={row.id}
              onClick={onRowClick ? () => onRowClick(row.original) : undefined}
              className={`border-b border-zinc-100 last:border-0 hover:bg-zinc-50 dark:border-zinc-800/60 dark:hover:bg-zinc-800/40 ${onRowClick ? "cursor-pointer" : ""} ${cards.row}`}
            >
              {row.getVisibleCells().map((cell) => {
                const meta = cell.column.columnDef.meta;
                return (
                  <td key={cell.id} className={`${cellClassName} ${cards.cell} ${meta?.numeric ? "text-right tabular-nums" : ""} ${meta?.cellClassName ?? ""}`}>
                    <FlexRender cell={cell} />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 ? empty : null}
    </div>
  );
}
