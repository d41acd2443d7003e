"use client";

import type { ReactTable, RowData } from "@tanstack/react-table";
import { buttonClass, focusRing } from "@/components/styles";
import type { DataTableFeatures } from "./data-table-features";

/** A "Columns" menu that shows or hides the columns that may be hidden (kept in the table's state, not the URL). */
export function DataTableViewOptions<TData extends RowData>({ table }: { table: ReactTable<DataTableFeatures, TData> }) {
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
