"use client";

import { Suspense, use } from "react";
import { formatCount } from "@/components/format";
import { useTransitionClick } from "@/components/pending-navigation";
import { RovingToolbar } from "@/components/roving-toolbar";
import { focusRing, mutedText } from "@/components/styles";

/** How many rows each value of a yes/no column would select under the other active filters. */
type Facet = { yes: number; no: number };

const OPTIONS: { value: boolean | undefined; text: string; count: (facet: Facet) => number }[] = [
  { value: undefined, text: "Any", count: (facet) => facet.yes + facet.no },
  { value: true, text: "Yes", count: (facet) => facet.yes },
  { value: false, text: "No", count: (facet) => facet.no },
];

interface DataTableFacetFilterProps<TCounts> {
  label: string;
  /** The value the URL filters by; undefined is "Any". */
  current: boolean | undefined;
  hrefFor: (value: boolean | undefined) => string;
  /** Counted after the rows are sent: each count shows "…" until then. */
  counts: Promise<TCounts>;
  /** Undefined when the counts are not known (a lower-bound search): the options show none. */
  pick: (counts: TCounts) => Facet | undefined;
}

/** A yes/no filter as three links (Any, Yes, No) in one tab stop, each with its count aligned right (needs a PendingNavigationProvider). */
export function DataTableFacetFilter<TCounts>({ label, current, hrefFor, counts, pick }: DataTableFacetFilterProps<TCounts>) {
  const onNavigate = useTransitionClick();
  const labelId = `filter-${label.toLowerCase()}`;
  return (
    <div role="group" aria-labelledby={labelId} className="flex flex-col gap-1">
      <span id={labelId} className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">
        {label}
      </span>
      <RovingToolbar labelledBy={labelId} className="flex flex-col">
        {OPTIONS.map((option) => {
          const active = option.value === current;
          return (
            <a
              key={option.text}
              href={hrefFor(option.value)}
              onClick={onNavigate}
              aria-current={active ? "true" : undefined}
              className={`${focusRing} flex items-center justify-between gap-3 rounded-sm px-1.5 py-0.5 text-sm ${
                active ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"
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
      </RovingToolbar>
    </div>
  );
}

function FacetCount<TCounts>({ counts, pick, count }: { counts: Promise<TCounts>; pick: (counts: TCounts) => Facet | undefined; count: (facet: Facet) => number }) {
  const facet = pick(use(counts));
  return facet ? formatCount(count(facet)) : null;
}
