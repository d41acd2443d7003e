"use client";

import { buttonClass } from "@/components/styles";

// Anything that fails while loading a dashboard page: say so, never show an empty list instead.
export default function DashboardError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-xl rounded-lg border border-red-300 bg-red-50 p-6 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <h1 className="text-lg font-semibold">Something went wrong</h1>
      <p className="mt-2 text-sm">
        The data could not be loaded, so nothing is shown rather than a list that might be wrong or empty. Try again; if it keeps failing, tell
        the operator{error.digest ? ` (error reference ${error.digest})` : ""}.
      </p>
      <button type="button" className={`${buttonClass} mt-4`} onClick={() => retry()}>
        Try again
      </button>
    </div>
  );
}
