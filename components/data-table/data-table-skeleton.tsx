import { Skeleton } from "@/components/skeleton";

/** A placeholder sized like a table of `rows` rows, so the page does not jump when data arrives. */
export function DataTableSkeleton({ rows = 10, columns = 5, label = "Loading" }: { rows?: number; columns?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="overflow-hidden rounded-lg border border-zinc-200 dark:border-zinc-800">
      <div className="flex gap-4 border-b border-zinc-200 bg-zinc-50 px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900">
        {Array.from({ length: columns }, (_, index) => (
          <Skeleton key={index} className="h-4 flex-1" />
        ))}
      </div>
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className="flex h-[45px] items-center gap-4 border-b border-zinc-100 px-4 last:border-0 dark:border-zinc-800/60">
          {Array.from({ length: columns }, (_, column) => (
            <Skeleton key={column} className="h-4 flex-1" />
          ))}
        </div>
      ))}
    </div>
  );
}
