import { Skeleton, TableSkeleton } from "@/components/skeleton";

export default function OverviewLoading() {
  return (
    <>
      <h1 className="text-2xl font-semibold">Waitlists</h1>
      <Skeleton className="mt-4 h-9 w-full max-w-sm" />
      <div className="mt-4">
        <TableSkeleton rows={8} columns={6} label="Loading waitlists" />
      </div>
    </>
  );
}
