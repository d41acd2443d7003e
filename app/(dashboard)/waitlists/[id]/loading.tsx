import { DataTableSkeleton } from "@/components/data-table/data-table-skeleton";
import { Skeleton } from "@/components/skeleton";
import { ChartSkeleton } from "./chart-section";
import { FiguresSkeleton } from "./figures";

// Sized like the real page (figures, chart, toolbar, 25 rows) so nothing jumps when data arrives.
export default function WaitlistLoading() {
  return (
    <>
      <div className="mt-6">
        <FiguresSkeleton />
      </div>
      <div className="mt-4">
        <ChartSkeleton />
      </div>
      <div className="mt-8 flex flex-wrap gap-3">
        <Skeleton className="h-9 w-full max-w-md" />
        <Skeleton className="h-9 w-40" />
        <Skeleton className="h-9 w-24" />
      </div>
      <div className="mt-4">
        <DataTableSkeleton rows={25} columns={5} label="Loading signups" />
      </div>
    </>
  );
}
