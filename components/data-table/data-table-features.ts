import { columnVisibilityFeature, metaHelper, rowSelectionFeature, rowSortingFeature, tableFeatures } from "@tanstack/react-table";

/** How the frame lays out one column's cells. */
export interface DataTableColumnMeta {
  /** Right-aligned, with tabular figures. */
  numeric?: boolean;
  /** Extra classes for the column's body cells. */
  cellClassName?: string;
  /** Extra classes for the column's header cell. */
  headerClassName?: string;
}

/**
 * What every dashboard table registers. The server sorts and pages (the URL holds both, so the
 * tables set `manualSorting`); there is no pagination feature: the row count streams in after the
 * rows, and the pagination links are computed from it (data-table-pagination.tsx). Rows can be
 * selected on the page (the signups table's checkboxes, for an admin).
 */
export const dataTableFeatures = tableFeatures({ rowSortingFeature, columnVisibilityFeature, rowSelectionFeature, columnMeta: metaHelper<DataTableColumnMeta>() });

export type DataTableFeatures = typeof dataTableFeatures;
