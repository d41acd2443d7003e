"use client";

import { Suspense, use } from "react";
import { formatCount } from "@/components/format";
import { mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import type { SignupCounts } from "@/lib/domain/signups/counts";

interface ShowingRangeProps {
  counts: Promise<SignupCounts>;
  state: SignupTableParams;
  /** Rows on this page. */
  shown: number;
  /** A navigation is under way: the range about to be shown is not known yet. */
  pending: boolean;
}

/** "Showing 1–50 of 1,234", announced as it changes; the total once it is counted. */
export function ShowingRange({ counts, state, shown, pending }: ShowingRangeProps) {
  return (
    <p className={`mt-2 text-sm ${mutedText}`} aria-live="polite">
      {pending ? (
        "Loading…"
      ) : (
        <Suspense fallback={<span>Counting signups…</span>}>
          <CountedRange counts={counts} state={state} shown={shown} />
        </Suspense>
      )}
    </p>
  );
}

function CountedRange({ counts, state, shown }: Omit<ShowingRangeProps, "pending">) {
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
