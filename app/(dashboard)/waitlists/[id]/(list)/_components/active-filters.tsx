"use client";

import { formatDate } from "@/components/format";
import { TransitionLink } from "@/components/pending-navigation";
import { focusRing, linkClass } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { dayRange, isFiltered, signupTableHref, withInput } from "@/lib/dashboard/signup-table-url";
import { INPUT_FILTER, setFilters } from "@/lib/domain/signups/filter";

interface Chip {
  text: string;
  without: Partial<SignupTableParams>;
}

function day(text: string): string {
  return formatDate(new Date(`${text}T00:00:00Z`));
}

function dateChipText(from: string | undefined, to: string | undefined): string {
  if (from && to) return from === to ? `Signed up on ${day(from)}` : `Signed up ${day(from)} – ${day(to)}`;
  return from ? `Signed up from ${day(from)}` : `Signed up until ${day(to!)}`;
}

/** Every active filter in words, each one a link that removes it. */
function chipsOf(state: SignupTableParams): Chip[] {
  const chips: Chip[] = [];
  for (const { key, descriptor, value } of setFilters(state)) {
    // The two ends of the date range are one chip, in days as the From and To inputs show them.
    if (descriptor.planner !== "range") chips.push({ text: descriptor.chip(value), without: { [key]: undefined } });
  }
  const { from, to } = dayRange(state);
  if (from || to) chips.push({ text: dateChipText(from, to), without: { createdSince: undefined, createdUntil: undefined } });
  for (const input of state.inputs) chips.push({ text: INPUT_FILTER.chip(input), without: { inputs: withInput(state.inputs, input.label, undefined) } });
  return chips;
}

/** How many filters are active, as the chips count them (the date range is one). */
export function activeFilterCount(state: SignupTableParams): number {
  return chipsOf(state).length;
}

/** The compact filter bar above the table: the active filters as removable chips, and "Clear filters". */
export function ActiveFilters({ waitlistId, state }: { waitlistId: string; state: SignupTableParams }) {
  if (!isFiltered(state)) return null;
  return (
    <div className="mt-2 flex items-center gap-2 text-sm md:flex-wrap">
      {/* One line on a phone, scrolled sideways: the drawer lists them all. */}
      <ul aria-label="Active filters" className="-my-1 flex min-w-0 gap-1.5 py-1 max-md:flex-1 max-md:overflow-x-auto md:flex-wrap">
        {chipsOf(state).map((chip) => (
          <li key={chip.text}>
            <TransitionLink
              href={signupTableHref(waitlistId, state, chip.without)}
              aria-label={`Remove the filter ${chip.text}`}
              className={`${focusRing} inline-flex max-w-[20rem] items-center whitespace-nowrap gap-1.5 rounded-full border border-zinc-300 bg-white py-0.5 pl-2.5 pr-2 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800`}
            >
              <span className="truncate">{chip.text}</span>
              <span aria-hidden="true" className="text-zinc-500 dark:text-zinc-400">
                ×
              </span>
            </TransitionLink>
          </li>
        ))}
      </ul>
      <TransitionLink href={`/waitlists/${waitlistId}`} className={`${linkClass} shrink-0 whitespace-nowrap`}>
        Clear filters
      </TransitionLink>
    </div>
  );
}
