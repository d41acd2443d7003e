"use client";

import { Suspense, use } from "react";
import { FacetOptions } from "@/components/data-table/facet-options";
import { Skeleton } from "@/components/skeleton";
import { mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { signupTableHref } from "@/lib/dashboard/signup-table-url";
import { SOURCE_FIELDS, type SourceField } from "@/lib/domain/funnel/source";
import type { SourceFacet } from "@/lib/domain/funnel/facets";
import type { SignupCounts } from "@/lib/domain/signups/counts";
import { FacetValueSearch, type FacetValueSearchResult } from "./facet-value-search";

const STATE_KEYS = { utm_source: "utmSource", utm_medium: "utmMedium", utm_campaign: "utmCampaign", referrer: "referrer" } as const satisfies Record<SourceField, keyof SignupTableParams>;

interface SourceFacetsProps {
  waitlistId: string;
  state: SignupTableParams;
  /** Null when an email search matches more signups than are counted. */
  facets: Promise<Record<SourceField, SourceFacet> | null>;
  /** The value search of one facet, when the URL asks for one (this panel shows it under a source field's facet). */
  valueSearch: Promise<FacetValueSearchResult> | undefined;
  counts: Promise<SignupCounts>;
}

/** Where the signups came from (utm_* and the referring site): one facet per field that has values, streamed in after the rows. */
export function SourceFacets(props: SourceFacetsProps) {
  return (
    <section aria-labelledby="source-facets-heading" className="flex flex-col gap-4">
      <h2 id="source-facets-heading" className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">
        Sources
      </h2>
      <Suspense fallback={<Skeleton className="h-4 w-40" />}>
        <SourceFacetList {...props} />
      </Suspense>
    </section>
  );
}

function SourceFacetList({ waitlistId, state, facets, valueSearch, counts }: SourceFacetsProps) {
  const facet = use(facets);
  if (facet === null) return <p className={`text-sm ${mutedText}`}>The search matches too many signups to count their sources.</p>;
  const shown = SOURCE_FIELDS.filter((field) => facet[field].values.length > 0 || state[STATE_KEYS[field]] !== undefined);
  if (shown.length === 0) return <p className={`text-sm ${mutedText}`}>No UTM parameters or referring sites among these signups.</p>;
  return shown.map((field) => {
    const current = state[STATE_KEYS[field]];
    const { values, exact, distinct } = facet[field];
    const hrefFor = (value: string, selected: boolean) => signupTableHref(waitlistId, state, { [STATE_KEYS[field]]: selected ? undefined : value });
    // The active value when it is not among the top ones (picked from a value search): its count under the other filters is the list's total.
    const listed: { value: string; count: (all: SignupCounts) => number }[] = values.map(({ value, count }) => ({ value, count: () => count }));
    if (current !== undefined && !values.some((each) => each.value === current)) listed.push({ value: current, count: (all) => all.total });
    const options = listed.map(({ value, count }) => ({ key: value, text: value, active: value === current, href: hrefFor(value, value === current), count }));
    return (
      <div key={field} className="flex flex-col gap-1">
        <FacetOptions label={field} options={options} counts={counts} pick={(all) => all} />
        {exact ? null : <p className={`text-xs ${mutedText}`}>Counted over the newest signups only: lower bounds.</p>}
        {distinct > values.length ? (
          <FacetValueSearch waitlistId={waitlistId} state={state} facet={field} label={field} distinct={distinct} active={current} hrefFor={hrefFor} search={state.facet === field ? valueSearch : undefined} />
        ) : null}
      </div>
    );
  });
}
