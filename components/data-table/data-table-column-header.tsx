import { FlexRender, type Header, type RowData } from "@tanstack/react-table";
import Link from "next/link";
import type { MouseEvent } from "react";
import { focusRing } from "@/components/styles";
import type { DataTableFeatures } from "./data-table-features";

type SortDirection = "asc" | "desc";

/** A column's <th>: a sortable column links to the same view sorted by it (the URL holds the sort). */
export function DataTableColumnHeader<TData extends RowData>({
  header,
  className,
  sortHref,
  onNavigate,
}: {
  header: Header<DataTableFeatures, TData>;
  className: string;
  sortHref: (columnId: string, direction: SortDirection) => string;
  onNavigate: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const { column } = header;
  const align = `${column.columnDef.meta?.numeric ? "text-right" : ""} ${column.columnDef.meta?.headerClassName ?? ""}`;
  if (!column.getCanSort()) {
    return (
      <th scope="col" className={`${className} ${align}`}>
        <FlexRender header={header} />
      </th>
    );
  }
  const sorted = column.getIsSorted();
  const next = column.getNextSortingOrder() || "asc";
  return (
    <th scope="col" aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"} className={`${className} ${align}`}>
      <Link href={sortHref(column.id, next)} scroll={false} onClick={onNavigate} className={`${focusRing} inline-flex items-center gap-1 rounded-sm hover:text-zinc-950 dark:hover:text-white`}>
        {String(column.columnDef.header)}
        <span aria-hidden="true" className={sorted ? "" : "text-zinc-400 dark:text-zinc-500"}>
          {sorted === "asc" ? "↑" : sorted === "desc" ? "↓" : "↕"}
        </span>
        <span className="sr-only">, sort {next === "asc" ? "ascending" : "descending"}</span>
      </Link>
    </th>
  );
}
