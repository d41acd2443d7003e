"use client";

import { Suspense, use } from "react";
import { formatCount } from "@/components/format";
import { useTransitionClick } from "@/components/pending-navigation";
import { focusRing, mutedText } from "@/components/styles";

interface DataTableMultiFacetFilterProps<TValue extends string, TCounts> {
  label: string;
  /** The values offered, in the order shown. */
  values: readonly TValue[];
  /** The values the URL filters by (any of them); undefined is "Any". */
  current: readonly TValue[] | undefined;
  /** The URL with these values picked (undefined: none, "Any"). */
  hrefFor: (values: TValue[] | undefined) => string;
  /** Counted after the rows are sent: each count shows "…" until then. */
  counts: Promise<TCounts>;
  /** How many rows each value would select under the other active filters; undefined when not known. */
  pick: (counts: TCounts) => Record<TValue, number> | undefined;
}

/**
 * A filter on one of several values as a list of links (Any, then each value with its count): a
 * value's link adds it to the picked ones, or takes it away when picked (needs a PendingNavigationProvider).
 */
export function DataTableMultiFacetFilter<TValue extends string, TCounts>({ label, values, current, hrefFor, counts, pick }: DataTableMultiFacetFilterProps<TValue, TCounts>) {
  const onNavigate = useTransitionClick();
  const labelId = `filter-${label.toLowerCase()}`;
  const toggled = (value: TValue) => {
    const next = current?.includes(value) ? current.filter((other) => other !== value) : [...(current ?? []), value];
    return next.length > 0 ? values.filter((other) => next.includes(other)) : undefined;
  };
  const options = [
    { key: "any", text: "Any", active: current === undefined, href: hrefFor(undefined), count: (facet: Record<TValue, number>) => values.reduce((sum, value) => sum + facet[value], 0) },
    ...values.map((value) => ({ key: value, text: value[0]!.toUpperCase() + value.slice(1), active: current?.includes(value) ?? false, href: hrefFor(toggled(value)), count: (facet: Record<TValue, number>) => facet[value] })),
  ];
  return (
    <div role="group" aria-labelledby={labelId} className="flex flex-col gap-1">
      <span id={labelId} className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">
        {label}
      </span>
      <div className="flex flex-col">
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
      </div>
    </div>
  );
}

function FacetCount<TValue extends string, TCounts>({ counts, pick, count }: { counts: Promise<TCounts>; pick: (counts: TCounts) => Record<TValue, number> | undefined; count: (facet: Record<TValue, number>) => number }) {
  const facet = pick(use(counts));
  return facet ? formatCount(count(facet)) : null;
}
