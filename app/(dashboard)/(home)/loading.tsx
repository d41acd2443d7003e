import { DataTableSkeleton } from "@/components/data-table/data-table-skeleton";
import { Skeleton } from "@/components/skeleton";

export default function OverviewLoading() {
  return (
    <>
      <h1 className="text-2xl font-semibold">Waitlists</h1>
      <Skeleton className="mt-4 h-9 w-full max-w-sm" />
      <div className="mt-4">
        <DataTableSkeleton rows={8} columns={6} label="Loading waitlists" />
      </div>
    </>
  );
}
