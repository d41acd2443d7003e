"use client";

import { FacetOptions } from "./facet-options";

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
  counts: Promise<TCounts>;
  pick: (counts: TCounts) => Facet | undefined;
}

/** A yes/no filter as three links (Any, Yes, No) in one tab stop, each with its count. */
export function DataTableFacetFilter<TCounts>({ label, current, hrefFor, counts, pick }: DataTableFacetFilterProps<TCounts>) {
  const options = OPTIONS.map((option) => ({ key: option.text.toLowerCase(), text: option.text, active: option.value === current, href: hrefFor(option.value), count: option.count }));
  return <FacetOptions label={label} options={options} counts={counts} pick={pick} />;
}
