import { DataTableSkeleton } from "@/components/data-table/data-table-skeleton";
import { Skeleton } from "@/components/skeleton";
import { ChartSkeleton } from "./_components/chart-section";
import { FiguresSkeleton } from "./_components/figures";

// Laid out like the real page (filters beside figures, chart, toolbar and 25 rows) so nothing jumps when data arrives.
export default function WaitlistLoading() {
  return (
    <div className="mt-4 grid gap-x-6 gap-y-4 lg:grid-cols-[15rem_minmax(0,1fr)]">
      <div className="flex flex-wrap gap-4 lg:flex-col" role="status" aria-label="Loading filters">
        <Skeleton className="h-14 w-56" />
        <Skeleton className="h-14 w-56" />
        <Skeleton className="h-24 w-56" />
      </div>
      <div className="min-w-0">
        <div className="grid gap-3 xl:grid-cols-[22rem_minmax(0,1fr)]">
          <FiguresSkeleton />
          <ChartSkeleton />
        </div>
        <div className="mt-3 flex flex-wrap gap-3">
          <Skeleton className="h-9 w-full max-w-md" />
          <Skeleton className="h-9 w-40" />
          <Skeleton className="h-9 w-24" />
        </div>
        <div className="mt-3">
          <DataTableSkeleton rows={25} columns={5} label="Loading signups" />
        </div>
      </div>
    </div>
  );
}
