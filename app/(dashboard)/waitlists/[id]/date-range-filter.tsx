"use client";

import { useId, useState } from "react";
import { TransitionLink, usePendingNavigation } from "@/components/pending-navigation";
import { buttonClass, inputClass, linkClass } from "@/components/styles";
import type { SignupTableParams } from "@/lib/domain/list-params";
import { signupTableHref, signupTableSearch } from "./table-url";

/**
 * "From" and "To" days (UTC, To included). Applied with the button or Enter, not on every change:
 * typing a year digit by digit would otherwise load a view per digit. Without JavaScript it is a
 * GET form that carries the other parameters in hidden fields.
 */
export function DateRangeFilter({ waitlistId, state }: { waitlistId: string; state: SignupTableParams }) {
  const id = useId();
  const { navigate } = usePendingNavigation();
  const [from, setFrom] = useState(state.from ?? "");
  const [to, setTo] = useState(state.to ?? "");
  const [shown, setShown] = useState(`${state.from}/${state.to}`);
  // The URL changed (a chart click, "clear", back/forward): show its range.
  if (`${state.from}/${state.to}` !== shown) {
    setShown(`${state.from}/${state.to}`);
    setFrom(state.from ?? "");
    setTo(state.to ?? "");
  }
  const hidden = [...signupTableSearch({ ...state, from: undefined, to: undefined, page: 1 })];
  const active = state.from !== undefined || state.to !== undefined;

  return (
    <form
      role="group"
      aria-labelledby={`${id}-legend`}
      action={`/waitlists/${waitlistId}`}
      method="get"
      className="flex flex-col gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(signupTableHref(waitlistId, state, { from: from || undefined, to: to || undefined }));
      }}
    >
      <span id={`${id}-legend`} className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">
        Signed up (UTC)
      </span>
      {hidden.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="grid grid-cols-[auto_1fr] items-center gap-x-2 gap-y-1.5 text-sm">
        <label htmlFor={`${id}-from`}>From</label>
        <input id={`${id}-from`} type="date" name="from" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} className={`${inputClass} w-full min-w-0 py-1`} />
        <label htmlFor={`${id}-to`}>To</label>
        <input id={`${id}-to`} type="date" name="to" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} className={`${inputClass} w-full min-w-0 py-1`} />
      </div>
      <div className="mt-1 flex items-center gap-3">
        <button type="submit" className={`${buttonClass} py-1`}>
          Apply dates
        </button>
        {active ? (
          <TransitionLink href={signupTableHref(waitlistId, state, { from: undefined, to: undefined })} className={`${linkClass} text-sm`}>
            Clear dates
          </TransitionLink>
        ) : null}
      </div>
    </form>
  );
}
