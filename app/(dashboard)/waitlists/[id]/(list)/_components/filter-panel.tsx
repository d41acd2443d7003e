"use client";

import { DataTableFacetFilter } from "@/components/data-table/data-table-facet-filter";
import { DataTableMultiFacetFilter } from "@/components/data-table/data-table-multi-facet-filter";
import { SIGNUP_STATUSES, STATUS_LABELS } from "@/lib/domain/signups/status";
import { FLAG_REASON_LABELS, FLAG_REASONS, type FlagReason } from "@/lib/domain/fraud/reasons";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import type { SignupCounts } from "@/lib/domain/signups/counts";
import { DateRangeFilter } from "./date-range-filter";
import type { InputFacet } from "@/lib/domain/signups/facets";
import type { FacetValueSearchResult } from "./facet-value-search";
import { InputFacets } from "./input-facets";
import { SourceFacets } from "./source-facets";
import type { SourceFacet } from "@/lib/domain/funnel/facets";
import type { SourceField } from "@/lib/domain/funnel/source";
import { FiltersDrawer } from "./filters-drawer";
import { signupTableHref } from "@/lib/dashboard/signup-table-url";

interface FilterPanelProps {
  waitlistId: string;
  state: SignupTableParams;
  counts: Promise<SignupCounts>;
  facets: Promise<InputFacet[] | null>;
  /** The value search of one facet, when the URL asks for one. */
  valueSearch: Promise<FacetValueSearchResult> | undefined;
  /** The flag facet: signups waiting for review per reason, under the other filters. */
  flagCounts: Promise<Record<FlagReason, number>>;
  /** The milestone facet, when the waitlist has milestones: their labels by step, and who reached each under the other filters. */
  milestones?: { labels: string[]; counts: Promise<Record<string, number>> };
  /** The source facets (utm_* and referrer). */
  sources: Promise<Record<SourceField, SourceFacet> | null>;
}

/** Every filter of the signups with how many each option selects under the others (needs a PendingNavigationProvider). */
export function FilterPanel({ waitlistId, state, counts, facets, valueSearch, flagCounts, milestones, sources }: FilterPanelProps) {
  const href = (change: Partial<SignupTableParams>) => signupTableHref(waitlistId, state, change);
  return (
    <FiltersDrawer>
      <aside id="filters" tabIndex={-1} aria-label="Filters" className="flex min-w-0 flex-col gap-5 focus:outline-none">
        <div className="grid grid-cols-[repeat(auto-fill,minmax(12rem,1fr))] gap-x-6 gap-y-4 lg:grid-cols-1">
          <DataTableFacetFilter label="Verified" current={state.verified} hrefFor={(value) => href({ verified: value })} counts={counts} pick={(c) => (c.exact ? c.verifiedFacet : undefined)} />
          <DataTableFacetFilter label="Referral" current={state.referral} hrefFor={(value) => href({ referral: value })} counts={counts} pick={(c) => (c.exact ? c.referralFacet : undefined)} />
          <DataTableMultiFacetFilter label="Status" values={SIGNUP_STATUSES} textOf={(status) => STATUS_LABELS[status]} current={state.status} hrefFor={(status) => href({ status })} counts={counts} pick={(c) => (c.exact ? c.statusFacet : undefined)} />
          <DataTableMultiFacetFilter label="Flag" values={FLAG_REASONS} textOf={(reason) => FLAG_REASON_LABELS[reason]} current={state.flag} hrefFor={(flag) => href({ flag })} counts={flagCounts} pick={(c) => c} withAny={false} />
          {milestones ? (
            <DataTableMultiFacetFilter label="Milestone" values={milestones.labels} textOf={(label) => label} current={state.milestone} hrefFor={(milestone) => href({ milestone })} counts={milestones.counts} pick={(c) => c} withAny={false} />
          ) : null}
          <DateRangeFilter waitlistId={waitlistId} state={state} />
        </div>
      <InputFacets waitlistId={waitlistId} state={state} facets={facets} valueSearch={valueSearch} counts={counts} />
      <SourceFacets waitlistId={waitlistId} state={state} facets={sources} valueSearch={valueSearch} counts={counts} />
      </aside>
    </FiltersDrawer>
  );
}
