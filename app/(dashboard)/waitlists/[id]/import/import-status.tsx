"use client";

import Link from "next/link";
import { useState } from "react";
import { formatBytes } from "@/lib/core/bytes";
import { linkClass, mutedText } from "@/components/styles";
import type { ImportOutcome } from "@/lib/import/events";
import { importPosition, IMPORT_STEPS } from "./import-phases";
import type { UploadState } from "./use-import-upload";

const number = new Intl.NumberFormat("en-US");

/**
 * One progress bar for the whole import, its steps named below it: the bar never goes back (the
 * highest position seen is kept, importPosition's ranges follow each other).
 */
export function ImportProgress({ state }: { state: Extract<UploadState, { stage: "uploading" | "server" }> }) {
  const { step, value: position } = importPosition(state);
  const [highest, setHighest] = useState(0);
  if (position > highest) setHighest(position);
  const value = Math.max(highest, position);
  let label: string;
  if (state.stage === "uploading") label = `Uploading: ${formatBytes(state.sent)} of ${formatBytes(state.total)}`;
  else if (state.phase === "received") label = `Received ${formatBytes(state.total)}: starting the import`;
  else if (state.phase === "importing") label = `Importing: ${number.format(state.rows)} rows read (${formatBytes(state.done)} of ${formatBytes(state.total)})`;
  else if (state.phase === "validating") label = `Invalid rows found: listing them (${number.format(state.rows)} rows checked)`;
  else label = `Updating counts and search for ${number.format(state.rows)} rows`;
  const current = IMPORT_STEPS.findIndex((each) => each.step === step);
  return (
    <div className="mt-6 grid max-w-2xl gap-2" data-testid="import-progress">
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${value}%: ${label}`}
        className="h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div className="h-full bg-blue-700 transition-[width] dark:bg-blue-500" style={{ width: `${value}%` }} />
      </div>
      <ol className="flex gap-4 text-xs" aria-label="Import steps">
        {IMPORT_STEPS.map((each, index) => (
          <li key={each.step} aria-current={index === current ? "step" : undefined} className={index === current ? "font-semibold" : mutedText}>
            {index < current ? "✓ " : `${index + 1}. `}
            {each.label}
          </li>
        ))}
      </ol>
      <p role="status" className={`text-sm ${mutedText}`}>
        {label}
      </p>
    </div>
  );
}

/** What became of the import: the counts, or why nothing was imported. */
export function ImportOutcomeNotice({ outcome, waitlistId }: { outcome: ImportOutcome; waitlistId: string }) {
  const back = (
    <Link href={`/waitlists/${waitlistId}`} className={`${linkClass} underline`}>
      Back to the list
    </Link>
  );
  if (outcome.type === "done") {
    return (
      <div role="status" data-testid="import-result" className="mt-6 max-w-2xl rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100">
        <p className="font-medium">
          Imported {number.format(outcome.imported)} · skipped {number.format(outcome.skipped_duplicates)} duplicate{outcome.skipped_duplicates === 1 ? "" : "s"}
        </p>
        <p className="mt-1">{back}</p>
      </div>
    );
  }
  return (
    <div role="alert" data-testid="import-errors" className="mt-6 max-w-2xl rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      {outcome.type === "invalid" ? (
        <>
          <p className="font-medium">
            {number.format(outcome.invalid)} invalid row{outcome.invalid === 1 ? "" : "s"}: nothing was imported.
          </p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {outcome.errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
          {outcome.invalid > outcome.errors.length ? <p className="mt-2">and {number.format(outcome.invalid - outcome.errors.length)} more.</p> : null}
        </>
      ) : (
        <p className="font-medium">Nothing was imported: {outcome.message}</p>
      )}
      <p className="mt-2">Correct the file and upload it again. {back}</p>
    </div>
  );
}
