"use client";

import { useId } from "react";
import { formatCount } from "@/components/format";
import { mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { inputFacetName, signupTableHref, withInput } from "@/lib/dashboard/signup-table-url";
import type { FacetValue, InputFacet as InputFacetData } from "@/lib/domain/signups/facets";
import { FacetValueLinks, LowerBoundNote } from "./facet-value-links";
import { FacetValueSearch, type FacetValueSearchResult } from "./facet-value-search";

interface InputFacetProps {
  waitlistId: string;
  state: SignupTableParams;
  facet: InputFacetData;
  /** The value search of this label, when the URL asks for one. */
  valueSearch: Promise<FacetValueSearchResult> | undefined;
  /** How many signups the current filters select: the count of this label's active value under the other filters. */
  selected: { total: number; exact: boolean };
}

/**
 * The top values with the active one in its place by count (it is counted under the other filters,
 * as the top values are, so its count is the current total); the top values already hold it unless it
 * was picked from a value search.
 */
function withActive(values: FacetValue[], active: string | undefined, selected: { total: number; exact: boolean }): FacetValue[] {
  if (active === undefined || values.some((entry) => entry.value === active)) return values;
  const entry = { value: active, count: selected.exact ? selected.total : Number.NaN };
  const at = values.findIndex((other) => other.count < entry.count || (other.count === entry.count && other.value > active));
  return at === -1 ? [...values, entry] : [...values.slice(0, at), entry, ...values.slice(at)];
}

/** One label: its top values with counts; a click filters by that value, a click on the active one removes it. */
export function InputFacet({ waitlistId, state, facet, valueSearch, selected }: InputFacetProps) {
  const labelId = useId();
  const active = state.inputs.find((input) => input.label === facet.label)?.value;
  const values = withActive(facet.values, active, selected);
  const hrefFor = (value: string, isActive: boolean) => signupTableHref(waitlistId, state, { inputs: withInput(state.inputs, facet.label, isActive ? undefined : value) });
  return (
    <div role="group" aria-labelledby={labelId} className="flex min-w-0 flex-col gap-1" data-testid="input-facet">
      <p className="flex items-baseline justify-between gap-2 text-sm">
        <span id={labelId} className="min-w-0 truncate font-medium" title={facet.label}>
          {facet.label}
        </span>
        <span className={`shrink-0 text-xs ${mutedText}`}>
          {formatCount(facet.distinct)} {facet.distinct === 1 ? "value" : "values"} in the list
        </span>
      </p>
      <FacetValueLinks label={facet.label} labelledBy={labelId} active={active} values={values} exact={facet.exact} hrefFor={hrefFor} />
      {facet.exact ? null : <LowerBoundNote />}
      {facet.distinct > facet.values.length ? (
        <FacetValueSearch waitlistId={waitlistId} state={state} facet={inputFacetName(facet.label)} label={facet.label} distinct={facet.distinct} active={active} hrefFor={hrefFor} search={valueSearch} />
      ) : null}
    </div>
  );
}
