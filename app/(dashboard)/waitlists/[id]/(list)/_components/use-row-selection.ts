"use client";

import { functionalUpdate, type RowSelectionState, type Updater } from "@tanstack/react-table";
import { useState } from "react";
import type { SignupListRow } from "./signup-list-row";

/** The rows checked on this page, and whether the selection stands for every matching signup instead. */
export function useRowSelection(rows: SignupListRow[]) {
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const [allMatching, setAllMatching] = useState(false);
  // Another page of rows starts with nothing selected.
  const [selectionRows, setSelectionRows] = useState(rows);
  if (selectionRows !== rows) {
    setSelectionRows(rows);
    setRowSelection({});
    setAllMatching(false);
  }
  return {
    rowSelection,
    allMatching,
    setAllMatching,
    selectedCount: Object.values(rowSelection).filter(Boolean).length,
    onRowSelectionChange: (updater: Updater<RowSelectionState>) => {
      // Changing a row's box leaves "all matching" for the rows checked.
      setRowSelection((current) => functionalUpdate(updater, current));
      setAllMatching(false);
    },
    clear: () => {
      setRowSelection({});
      setAllMatching(false);
    },
  };
}
