"use client";

import { Suspense, use, useId } from "react";
import { mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import type { FacetValues } from "@/lib/domain/signups/facets";
import { FacetValueLinks, LowerBoundNote } from "./facet-value-links";
import { FacetValueSearchForm } from "./facet-value-search-form";

/** The values of one facet that contain a text (the URL's `facet`/`facet_q`); null when the search is too broad to count. */
export interface FacetValueSearchResult {
  /** The facet, by the /v1 parameter its values set: `input.company`, `utm_source`. */
  facet: string;
  contains: string;
  values: FacetValues | null;
}

interface FacetValueSearchProps {
  waitlistId: string;
  state: SignupTableParams;
  facet: string;
  label: string;
  /** How many values the facet has: the search box's placeholder says so. */
  distinct: number;
  active: string | undefined;
  hrefFor: (value: string, selected: boolean) => string;
  /** This facet's search, when the URL asks for one. */
  search: Promise<FacetValueSearchResult> | undefined;
}

/** Under a facet with more values than it shows: a search box for the others, and what it found (one mechanism for every such facet). */
export function FacetValueSearch({ search, distinct, ...rest }: FacetValueSearchProps) {
  return (
    <>
      <FacetValueSearchForm waitlistId={rest.waitlistId} state={rest.state} facet={rest.facet} label={rest.label} distinct={distinct} />
      {search ? (
        <Suspense fallback={<p className={`text-xs ${mutedText}`}>Searching values…</p>}>
          <SearchResults search={search} {...rest} />
        </Suspense>
      ) : null}
    </>
  );
}

function SearchResults({ search, label, active, hrefFor }: Omit<FacetValueSearchProps, "distinct"> & { search: Promise<FacetValueSearchResult> }) {
  const headingId = useId();
  const { contains, values: counted } = use(search);
  if (counted === null) return <p className={`text-xs ${mutedText}`}>The search matches too many signups to count values: narrow it first.</p>;
  return (
    <div className="mt-1 border-l-2 border-zinc-200 pl-2 dark:border-zinc-700" data-testid="facet-value-search-results">
      <p id={headingId} className={`text-xs ${mutedText}`}>
        {counted.values.length === 0 ? `No value contains “${contains}”.` : `Values containing “${contains}”:`}
      </p>
      {counted.values.length > 0 ? <FacetValueLinks label={label} labelledBy={headingId} active={active} values={counted.values} exact={counted.exact} hrefFor={hrefFor} /> : null}
      {counted.exact ? null : <LowerBoundNote />}
    </div>
  );
}
