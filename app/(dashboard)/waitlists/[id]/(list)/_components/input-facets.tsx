"use client";

import { Suspense, use } from "react";
import { Skeleton } from "@/components/skeleton";
import { mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import type { SignupCounts } from "@/lib/domain/signups/counts";
import type { InputFacet as InputFacetData } from "@/lib/domain/signups/facets";
import { inputFacetName } from "@/lib/dashboard/signup-table-url";
import type { FacetValueSearchResult } from "./facet-value-search";
import { InputFacet } from "./input-facet";

interface InputFacetsProps {
  waitlistId: string;
  state: SignupTableParams;
  /** Null when an email search matches more signups than are counted. */
  facets: Promise<InputFacetData[] | null>;
  valueSearch: Promise<FacetValueSearchResult> | undefined;
  counts: Promise<SignupCounts>;
}

/** One facet per common custom-input label, streamed in after the rows. */
export function InputFacets(props: InputFacetsProps) {
  return (
    <section aria-labelledby="input-facets-heading" className="flex flex-col gap-4">
      <h2 id="input-facets-heading" className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">
        Custom inputs
      </h2>
      <Suspense fallback={<FacetsSkeleton />}>
        <FacetList {...props} />
      </Suspense>
    </section>
  );
}

function FacetList({ waitlistId, state, facets, valueSearch, counts }: InputFacetsProps) {
  const list = use(facets);
  const { total, exact } = use(counts);
  if (list === null) return <p className={`text-sm ${mutedText}`}>The search matches too many signups to count their custom inputs: narrow the search to see them.</p>;
  if (list.length === 0) return <p className={`text-sm ${mutedText}`}>No custom inputs among these signups.</p>;
  return list.map((facet) => (
    <InputFacet key={facet.label} waitlistId={waitlistId} state={state} facet={facet} valueSearch={valueSearch && state.facet === inputFacetName(facet.label) ? valueSearch : undefined} selected={{ total, exact }} />
  ));
}

function FacetsSkeleton() {
  return (
    <div role="status" aria-label="Loading custom inputs" className="flex flex-col gap-2">
      <Skeleton className="h-4 w-24" />
      <Skeleton className="h-4 w-48" />
      <Skeleton className="h-4 w-40" />
    </div>
  );
}
