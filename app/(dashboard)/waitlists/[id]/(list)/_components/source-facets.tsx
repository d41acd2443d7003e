"use client";

import { Suspense, use } from "react";
import { FacetOptions } from "@/components/data-table/facet-options";
import { Skeleton } from "@/components/skeleton";
import { mutedText } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { signupTableHref } from "@/lib/dashboard/signup-table-url";
import { SOURCE_FIELDS, type SourceField } from "@/lib/domain/funnel/source";
import type { FacetValues } from "@/lib/domain/signups/facets";

const STATE_KEYS = { utm_source: "utmSource", utm_medium: "utmMedium", utm_campaign: "utmCampaign", referrer: "referrer" } as const satisfies Record<SourceField, keyof SignupTableParams>;

interface SourceFacetsProps {
  waitlistId: string;
  state: SignupTableParams;
  /** Null when an email search matches more signups than are counted. */
  facets: Promise<Record<SourceField, FacetValues> | null>;
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

function SourceFacetList({ waitlistId, state, facets }: SourceFacetsProps) {
  const facet = use(facets);
  if (facet === null) return <p className={`text-sm ${mutedText}`}>The search matches too many signups to count their sources.</p>;
  const shown = SOURCE_FIELDS.filter((field) => facet[field].values.length > 0 || state[STATE_KEYS[field]] !== undefined);
  if (shown.length === 0) return <p className={`text-sm ${mutedText}`}>No UTM parameters or referring sites among these signups.</p>;
  return shown.map((field) => {
    const current = state[STATE_KEYS[field]];
    const { values, exact } = facet[field];
    const listed = current !== undefined && !values.some((each) => each.value === current) ? [...values, { value: current, count: 0 }] : values;
    const options = listed.map(({ value, count }) => ({
      key: value,
      text: value,
      active: value === current,
      href: signupTableHref(waitlistId, state, { [STATE_KEYS[field]]: value === current ? undefined : value }),
      count: () => count,
    }));
    return (
      <div key={field} className="flex flex-col gap-1">
        <FacetOptions label={field} options={options} counts={Promise.resolve(facet)} pick={(all) => all} />
        {exact ? null : <p className={`text-xs ${mutedText}`}>Counted over the newest signups only: lower bounds.</p>}
      </div>
    );
  });
}
