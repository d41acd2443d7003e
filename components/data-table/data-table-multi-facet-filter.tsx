"use client";

import { FacetOptions } from "./facet-options";

interface DataTableMultiFacetFilterProps<TValue extends string, TCounts> {
  label: string;
  /** The values offered, in the order shown, and their words. */
  values: readonly TValue[];
  textOf: (value: TValue) => string;
  /** The values the URL filters by (any of them); undefined is "Any". */
  current: readonly TValue[] | undefined;
  /** The URL with these values picked (undefined: none, "Any"). */
  hrefFor: (values: TValue[] | undefined) => string;
  counts: Promise<TCounts>;
  /** How many rows each value would select under the other active filters; undefined when not known. */
  pick: (counts: TCounts) => Record<TValue, number> | undefined;
  /** Whether "Any" leads the values, counted as their sum: not for values a row may have several or none of (flags). */
  withAny?: boolean;
}

/**
 * A filter on one of several values as links in one tab stop (Any unless told, then each value with its count):
 * a value's link adds it to the picked ones, or takes it away when picked.
 */
export function DataTableMultiFacetFilter<TValue extends string, TCounts>({ label, values, textOf, current, hrefFor, counts, pick, withAny = true }: DataTableMultiFacetFilterProps<TValue, TCounts>) {
  const toggled = (value: TValue) => {
    const next = current?.includes(value) ? current.filter((other) => other !== value) : [...(current ?? []), value];
    return next.length > 0 ? values.filter((other) => next.includes(other)) : undefined;
  };
  const options = [
    ...(withAny ? [{ key: "any", text: "Any", active: current === undefined, href: hrefFor(undefined), count: (facet: Record<TValue, number>) => values.reduce((sum, value) => sum + facet[value], 0) }] : []),
    ...values.map((value) => ({ key: value, text: textOf(value), active: current?.includes(value) ?? false, href: hrefFor(toggled(value)), count: (facet: Record<TValue, number>) => facet[value] })),
  ];
  return <FacetOptions label={label} options={options} counts={counts} pick={pick} />;
}
