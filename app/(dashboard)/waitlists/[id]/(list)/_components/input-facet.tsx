"use client";

import { Suspense, use, useId } from "react";
import { formatCount } from "@/components/format";
import { useTransitionClick } from "@/components/pending-navigation";
import { RovingToolbar } from "@/components/roving-toolbar";
import { focusRing, mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import type { FacetValue, FacetValues, InputFacet as InputFacetData } from "@/lib/domain/signups/facets";
import { FACET_ROW_CAP } from "@/lib/domain/signups/limits";
import { InputValueSearchForm } from "./input-value-search-form";
import { signupTableHref, withInput } from "@/lib/dashboard/signup-table-url";

/** The values of one label that contain a text (the `facet`/`facet_q` of the URL); null when the search is too broad to count. */
export interface InputValueSearch {
  label: string;
  contains: string;
  values: FacetValues | null;
}

interface InputFacetProps {
  waitlistId: string;
  state: SignupTableParams;
  facet: InputFacetData;
  /** The value search of this label, when the URL asks for one. */
  valueSearch: Promise<InputValueSearch> | undefined;
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
  const more = facet.distinct > facet.values.length;
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
      <ValueLinks waitlistId={waitlistId} state={state} label={facet.label} labelledBy={labelId} active={active} values={values} exact={facet.exact} />
      {facet.exact ? null : <LowerBoundNote />}
      {more ? (
        <>
          <InputValueSearchForm waitlistId={waitlistId} state={state} label={facet.label} distinct={facet.distinct} />
          {valueSearch ? (
            <Suspense fallback={<p className={`text-xs ${mutedText}`}>Searching values…</p>}>
              <ValueSearchResults waitlistId={waitlistId} state={state} label={facet.label} active={active} search={valueSearch} />
            </Suspense>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function ValueSearchResults({ search, ...rest }: { waitlistId: string; state: SignupTableParams; label: string; active: string | undefined; search: Promise<InputValueSearch> }) {
  const headingId = useId();
  const { contains, values: counted } = use(search);
  if (counted === null) return <p className={`text-xs ${mutedText}`}>The search matches too many signups to count values: narrow it first.</p>;
  return (
    <div className="mt-1 border-l-2 border-zinc-200 pl-2 dark:border-zinc-700" data-testid="input-value-search-results">
      <p id={headingId} className={`text-xs ${mutedText}`}>
        {counted.values.length === 0 ? `No value contains “${contains}”.` : `Values containing “${contains}”:`}
      </p>
      {counted.values.length > 0 ? <ValueLinks {...rest} labelledBy={headingId} values={counted.values} exact={counted.exact} /> : null}
      {counted.exact ? null : <LowerBoundNote />}
    </div>
  );
}

const LOWER_BOUND_WHY = `Counted in the first ${formatCount(FACET_ROW_CAP)} matching signups only, to keep the page fast: there may be more.`;

/** Under a facet whose counts were read from the first FACET_ROW_CAP matching signups. */
function LowerBoundNote() {
  return <p className={`px-1.5 text-xs ${mutedText}`}>“At least”: {LOWER_BOUND_WHY}</p>;
}

function ValueLinks({
  waitlistId,
  state,
  label,
  labelledBy,
  active,
  values,
  exact,
}: {
  waitlistId: string;
  state: SignupTableParams;
  label: string;
  labelledBy: string;
  active: string | undefined;
  values: FacetValue[];
  /** False: the counts are lower bounds, read "at least …". */
  exact: boolean;
}) {
  const onNavigate = useTransitionClick();
  return (
    <RovingToolbar labelledBy={labelledBy}>
      <ul className="flex flex-col">
        {values.map(({ value, count }) => {
          const selected = value === active;
          const href = signupTableHref(waitlistId, state, { inputs: withInput(state.inputs, label, selected ? undefined : value) });
          return (
            <li key={value}>
              <a
                href={href}
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
