"use client";

import { useId, useState } from "react";
import { TransitionLink, usePendingNavigation } from "@/components/pending-navigation";
import { buttonClass, inputClass, linkClass } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { dayRange, signupTableHref, signupTableSearch, withDays } from "@/lib/dashboard/signup-table-url";

/**
 * "From" and "To" days (UTC, To included). Applied with the button or Enter, not on every change:
 * typing a year digit by digit would otherwise load a view per digit. Without JavaScript it is a
 * GET form that carries the other parameters in hidden fields; its days arrive as `from` and `to`, which
 * the dashboard's proxy turns into `created_since` and `created_until` (the next midnight) as it does
 * for old bookmarks.
 */
export function DateRangeFilter({ waitlistId, state }: { waitlistId: string; state: SignupTableParams }) {
  const id = useId();
  const { navigate } = usePendingNavigation();
  // Only the other input's bound: the inputs themselves are uncontrolled, so a day typed before
  // hydration survives it, and the submit reads what the inputs hold.
  const range = dayRange(state);
  const [bounds, setBounds] = useState({ from: range.from ?? "", to: range.to ?? "", shown: `${range.from}/${range.to}` });
  const shown = `${range.from}/${range.to}`;
  // The URL changed (a chart click, "clear", back/forward): the keyed inputs remount with its range.
  if (bounds.shown !== shown) setBounds({ from: range.from ?? "", to: range.to ?? "", shown });
  const hidden = [...signupTableSearch({ ...state, ...withDays(undefined, undefined), page: 1 })];
  const active = range.from !== undefined || range.to !== undefined;

  return (
    <form
      action={`/waitlists/${waitlistId}`}
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const day = (name: string) => (form.get(name) as string | null) || undefined;
        navigate(signupTableHref(waitlistId, state, withDays(day("from"), day("to"))));
      }}
    >
      {/* A fieldset, not a form with role="group" (a role a form may not take): the group of the two days. */}
      <fieldset className="flex min-w-0 flex-col gap-1">
        <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">Signed up (UTC)</legend>
        {hidden.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div key={shown} className="grid grid-cols-[auto_1fr] items-center gap-x-2 gap-y-1.5 text-sm">
          <label htmlFor={`${id}-from`}>From</label>
          <input id={`${id}-from`} type="date" name="from" defaultValue={range.from ?? ""} max={bounds.to || undefined} onChange={(event) => setBounds({ ...bounds, from: event.target.value })} className={`${inputClass} w-full min-w-0 py-1`} />
          <label htmlFor={`${id}-to`}>To</label>
          <input id={`${id}-to`} type="date" name="to" defaultValue={range.to ?? ""} min={bounds.from || undefined} onChange={(event) => setBounds({ ...bounds, to: event.target.value })} className={`${inputClass} w-full min-w-0 py-1`} />
        </div>
        <div className="mt-1 flex items-center gap-3">
          <button type="submit" className={`${buttonClass} py-1`}>
            Apply dates
          </button>
          {active ? (
            <TransitionLink href={signupTableHref(waitlistId, state, withDays(undefined, undefined))} className={`${linkClass} text-sm`}>
              Clear dates
            </TransitionLink>
          ) : null}
        </div>
      </fieldset>
    </form>
  );
}
