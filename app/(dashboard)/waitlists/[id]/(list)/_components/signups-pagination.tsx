"use client";

import { Suspense, use } from "react";
import { DataTablePagination } from "@/components/data-table/data-table-pagination";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import type { SignupCounts } from "@/lib/domain/signups/counts";

interface SignupsPaginationProps {
  counts: Promise<SignupCounts>;
  state: SignupTableParams;
  maxPage: number;
  hrefForPage: (page: number) => string;
}

/** The pagination, once the total is counted (its height kept meanwhile). */
export function SignupsPagination(props: SignupsPaginationProps) {
  return (
    <Suspense fallback={<nav aria-label="Pagination" className="mt-4 h-9" />}>
      <CountedPagination {...props} />
    </Suspense>
  );
}

function CountedPagination({ counts, state, maxPage, hrefForPage }: SignupsPaginationProps) {
  const { total, exact } = use(counts);
  return <DataTablePagination page={state.page} pageSize={state.size} rowCount={total} rowCountIsLowerBound={!exact} maxPage={maxPage} hrefForPage={hrefForPage} />;
}
