"use client";

import { Suspense, use } from "react";
import { formatCount } from "@/components/format";
import { useTransitionClick } from "@/components/pending-navigation";
import { RovingToolbar } from "@/components/roving-toolbar";
import { focusRing, mutedText } from "@/components/styles";

/** One link of a facet: its text, whether the URL picks it, where it leads, and its count from the facet. */
export interface FacetOption<TFacet> {
  key: string;
  text: string;
  active: boolean;
  href: string;
  count: (facet: TFacet) => number;
}

interface FacetOptionsProps<TFacet, TCounts> {
  label: string;
  options: FacetOption<TFacet>[];
  /** Counted after the rows are sent: each count shows "…" until then. */
  counts: Promise<TCounts>;
  /** Undefined when the counts are not known (a lower-bound search): the options show none. */
  pick: (counts: TCounts) => TFacet | undefined;
}

/** A facet's links in one tab stop (arrow keys inside), each with its count aligned right (needs a PendingNavigationProvider). */
export function FacetOptions<TFacet, TCounts>({ label, options, counts, pick }: FacetOptionsProps<TFacet, TCounts>) {
  const onNavigate = useTransitionClick();
  const labelId = `filter-${label.toLowerCase()}`;
  return (
    <div role="group" aria-labelledby={labelId} className="flex flex-col gap-1">
      <span id={labelId} className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">
        {label}
      </span>
      <RovingToolbar labelledBy={labelId} className="flex flex-col">
        {options.map((option) => (
          <a
            key={option.key}
            href={option.href}
            onClick={onNavigate}
            aria-current={option.active ? "true" : undefined}
            className={`${focusRing} flex items-center justify-between gap-3 rounded-sm px-1.5 py-0.5 text-sm ${
              option.active ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"
            }`}
          >
            <span>{option.text}</span>
            <span className={`tabular-nums text-xs ${option.active ? "" : mutedText}`} data-testid={`facet-${label.toLowerCase()}-${option.key}`}>
              <Suspense fallback="…">
                <FacetCount counts={counts} pick={pick} count={option.count} />
              </Suspense>
            </span>
          </a>
        ))}
      </RovingToolbar>
    </div>
  );
}

function FacetCount<TFacet, TCounts>({ counts, pick, count }: { counts: Promise<TCounts>; pick: (counts: TCounts) => TFacet | undefined; count: (facet: TFacet) => number }) {
  const facet = pick(use(counts));
  return facet ? formatCount(count(facet)) : null;
}
