"use client";

import { Suspense, use } from "react";
import { formatCount } from "@/components/format";
import { buttonClass, dangerLinkClass, inputClass, linkClass, mutedText } from "@/components/styles";
import type { SignupCounts } from "@/lib/domain/signups/counts";
import { MAX_ACTION_LIMIT, STATUS_ACTION_NAMES, STATUS_ACTIONS } from "@/lib/domain/signups/status";

/** The form the rows' checkboxes belong to (their `form` attribute): they sit in the table, outside it. */
export const BULK_FORM_ID = "bulk-actions";

/** How many "Invite the next N" suggests. */
const NEXT_DEFAULT = 50;

interface BulkActionsProps {
  waitlistId: string;
  /** The current filters under their /v1 names: what "all matching" and "the next N" select. */
  filterFields: Record<string, string>;
  /** This page of the list, to come back to. */
  returnHref: string;
  counts: Promise<SignupCounts>;
  /** Rows checked on this page. */
  selected: number;
  /** Every row of this page is checked. */
  pageSelected: boolean;
  rowsOnPage: number;
  /** "Select all N matching" is on: the actions take the filters instead of the checked rows. */
  allMatching: boolean;
  onAllMatching: (on: boolean) => void;
  onClear: () => void;
}

function HiddenFields({ fields }: { fields: Record<string, string> }) {
  return Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}

/**
 * The admin's actions on a selection: the checked rows (the checkboxes submit their ids to this
 * form), or every signup matching the filters once "select all N matching" is on. Each action is a
 * GET to its confirmation page (./status/[action]), which says what would change before anything does.
 */
export function BulkActions(props: BulkActionsProps) {
  const { waitlistId, filterFields, returnHref, selected, allMatching, onClear } = props;
  const none = selected === 0 && !allMatching;
  // On a phone the bar waits for a checked row: the first signups stay in the first screen.
  return (
    <div className={`mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-900/60 ${none ? "max-md:hidden" : ""}`}>
      <form id={BULK_FORM_ID} method="get" action={`/waitlists/${waitlistId}/status/invite`} className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="return" value={returnHref} />
        {allMatching ? <HiddenFields fields={filterFields} /> : null}
        <Suspense fallback={<span className={mutedText}>Counting…</span>}>
          <SelectionSummary {...props} />
        </Suspense>
        {STATUS_ACTION_NAMES.map((action) => (
          <button
            key={action}
            type="submit"
            formAction={`/waitlists/${waitlistId}/status/${action}`}
            disabled={none}
            className={action === "reject" ? dangerLinkClass : buttonClass}
            title={none ? "Select signups first" : undefined}
          >
            {STATUS_ACTIONS[action].label}…
          </button>
        ))}
        {none ? null : (
          <button type="button" onClick={onClear} className={`${linkClass} px-1`}>
            Clear selection
          </button>
        )}
      </form>
      <form method="get" action={`/waitlists/${waitlistId}/status/invite`} className="flex items-center gap-2 md:ml-auto">
        <HiddenFields fields={{ ...filterFields, return: returnHref }} />
        <label className="flex items-center gap-2">
          <span>Invite the next</span>
          <input name="limit" type="number" min={1} max={MAX_ACTION_LIMIT} required defaultValue={NEXT_DEFAULT} className={`${inputClass} w-24 py-1`} />
          <span>waiting</span>
          <span className="sr-only">signups in line, under the current filters</span>
        </label>
        <button type="submit" className={buttonClass}>
          Invite next…
        </button>
      </form>
    </div>
  );
}

/** "3 selected", and the offer to select every match once the whole page is. */
function SelectionSummary({ counts, selected, pageSelected, rowsOnPage, allMatching, onAllMatching }: BulkActionsProps) {
  const { total, exact } = use(counts);
  const matching = `${exact ? "" : "at least "}${formatCount(total)}`;
  return (
    <span aria-live="polite" className="mr-1 flex flex-wrap items-center gap-x-2" data-testid="selection-summary">
      {allMatching ? (
        <>
          <strong>All {matching} matching signups are selected.</strong>
          <button type="button" onClick={() => onAllMatching(false)} className={linkClass}>
            Select only this page
          </button>
        </>
      ) : selected === 0 ? (
        <span className={mutedText}>Select signups to act on them.</span>
      ) : (
        <>
          <strong>{formatCount(selected)} selected.</strong>
          {pageSelected && total > rowsOnPage ? (
            <button type="button" onClick={() => onAllMatching(true)} className={linkClass}>
              Select all {matching} matching
            </button>
          ) : null}
        </>
      )}
    </span>
  );
}
