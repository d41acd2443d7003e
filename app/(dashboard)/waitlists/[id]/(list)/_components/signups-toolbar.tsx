"use client";

import type { ReactTable } from "@tanstack/react-table";
import type { DataTableFeatures } from "@/components/data-table/data-table-features";
import { DataTableViewOptions } from "@/components/data-table/data-table-view-options";
import { usePendingNavigation } from "@/components/pending-navigation";
import { SearchBox } from "@/components/search-box";
import { inputClass } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { signupExportHref, signupTableHref, signupTableSearch } from "@/lib/dashboard/signup-table-url";
import type { SignupCounts } from "@/lib/domain/signups/counts";
import { SIGNUP_FILTERS } from "@/lib/domain/signups/filter";
import { ExportLink } from "../../export/export-link";
import { activeFilterCount } from "./active-filters";
import { FiltersButton } from "./filters-drawer";
import type { SignupListRow } from "./signup-list-row";

interface SignupsToolbarProps {
  waitlistId: string;
  state: SignupTableParams;
  counts: Promise<SignupCounts>;
  pageSizes: readonly number[];
  table: ReactTable<DataTableFeatures, SignupListRow>;
}

/** The table's heading, its email search, and what applies to the whole list: filters, export, page size, columns. */
export function SignupsToolbar({ waitlistId, state, counts, pageSizes, table }: SignupsToolbarProps) {
  const { navigate } = usePendingNavigation();
  const href = (change: Partial<SignupTableParams>) => signupTableHref(waitlistId, state, change);
  const hidden = Object.fromEntries(signupTableSearch({ ...state, emailContains: undefined, facet_q: undefined, page: 1 }));
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
      <h2 id="signups-heading" className="text-lg font-semibold">
        Signups
      </h2>
      <div className="max-md:order-last max-md:basis-full md:contents">
        <SearchBox label="Search by email" placeholder="Search emails" value={state.emailContains ?? ""} hrefFor={(q) => href({ emailContains: q || undefined })} hidden={hidden} name={SIGNUP_FILTERS.emailContains.name} />
      </div>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        <FiltersButton count={activeFilterCount(state)} />
        <ExportLink href={signupExportHref(waitlistId, state)} columnsHref={signupExportHref(waitlistId, state, true)} counts={counts} />
        <label className="flex items-center gap-2 text-sm">
          <span className="max-md:sr-only">Rows per page</span>
          <select className={`${inputClass} py-1.5`} value={state.size} onChange={(event) => navigate(href({ size: Number(event.target.value) }))}>
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <div className="max-md:hidden">
          <DataTableViewOptions table={table} />
        </div>
      </div>
    </div>
  );
}
