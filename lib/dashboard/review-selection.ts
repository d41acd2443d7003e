import "server-only";
import { invalidParameter } from "@/lib/core/errors";
import { parseStatusSelection } from "./status-selection";

// Which flagged signups a dashboard review decision names: the rows selected in the review view,
// read by the status actions' selection (./status-selection.ts), which alone may name them by a filter.

/** The selected rows of the review view (`ids`, `return`), or an error naming what is wrong. */
export function parseReviewSelection(waitlistId: string, entries: Iterable<[string, string]>) {
  const chosen = parseStatusSelection(waitlistId, entries);
  if (!("ids" in chosen.selection)) throw invalidParameter("ids", "No signups are selected: select rows in the review first.");
  return { selection: chosen.selection, returnTo: chosen.returnTo, fields: chosen.fields };
}
