"use client";

import { formatCount } from "@/components/format";
import { useTransitionClick } from "@/components/pending-navigation";
import { RovingToolbar } from "@/components/roving-toolbar";
import { focusRing, mutedText } from "@/components/styles";
import type { FacetValue } from "@/lib/domain/signups/facets";
import { FACET_ROW_CAP } from "@/lib/domain/signups/limits";

export const LOWER_BOUND_WHY = `Counted in the first ${formatCount(FACET_ROW_CAP)} matching signups only, to keep the page fast: there may be more.`;

/** Under a facet whose counts were read from the first FACET_ROW_CAP matching signups. */
export function LowerBoundNote() {
  return <p className={`px-1.5 text-xs ${mutedText}`}>“At least”: {LOWER_BOUND_WHY}</p>;
}

interface FacetValueLinksProps {
  /** The facet's name in words (`Company`, `utm_source`), for the links' titles. */
  label: string;
  labelledBy: string;
  active: string | undefined;
  values: FacetValue[];
  /** False: the counts are lower bounds, read "at least …". */
  exact: boolean;
  /** The URL with this value picked, or with the facet's filter removed when `selected`. */
  hrefFor: (value: string, selected: boolean) => string;
}

/** A facet's values as links in one tab stop (arrow keys inside): a click filters by that value, a click on the active one removes it. */
export function FacetValueLinks({ label, labelledBy, active, values, exact, hrefFor }: FacetValueLinksProps) {
  const onNavigate = useTransitionClick();
  return (
    <RovingToolbar labelledBy={labelledBy}>
      <ul className="flex flex-col">
        {values.map(({ value, count }) => {
          const selected = value === active;
          return (
            <li key={value}>
              <a
                href={hrefFor(value, selected)}
                onClick={onNavigate}
                aria-current={selected ? "true" : undefined}
                title={selected ? `Remove the filter ${label}: ${value}` : `Only signups with ${label}: ${value}`}
                className={`${focusRing} flex items-baseline justify-between gap-2 rounded-sm px-1.5 py-0.5 text-sm ${
                  selected ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"
                }`}
              >
                <span className="min-w-0 truncate">{value === "" ? "(empty)" : value}</span>
                <ValueCount count={count} exact={exact} selected={selected} />
              </a>
            </li>
          );
        })}
      </ul>
    </RovingToolbar>
  );
}

function ValueCount({ count, exact, selected }: { count: number; exact: boolean; selected: boolean }) {
  const className = `shrink-0 text-xs tabular-nums ${selected ? "" : mutedText}`;
  if (Number.isNaN(count)) return null;
  if (exact) return <span className={className}>{formatCount(count)}</span>;
  return (
    <span className={className} title={LOWER_BOUND_WHY}>
      at least {formatCount(count)}
    </span>
  );
}
