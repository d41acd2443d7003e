"use client";

import { buttonClass } from "@/components/styles";

// The signups could not be read: say so instead of showing an empty (and wrong) list.
export default function WaitlistError({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <div role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-6 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <h2 className="text-lg font-semibold">Something went wrong</h2>
      <p className="mt-2 text-sm">
        The signups of this waitlist could not be loaded. This is an error, not an empty list. Try again; if it keeps failing, tell the
        operator{error.digest ? ` (error reference ${error.digest})` : ""}.
      </p>
      <button type="button" className={`${buttonClass} mt-4`} onClick={() => retry()}>
        Try again
      </button>
    </div>
  );
}
