"use client";

import { useId, useState } from "react";
import { usePendingNavigation } from "@/components/pending-navigation";
import { buttonClass, inputClass } from "@/components/styles";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { signupTableHref, signupTableSearch } from "@/lib/dashboard/signup-table-url";

/**
 * Finds values of one facet beyond its top ones: a GET form that puts `facet=<name>&facet_q=<text>`
 * in the URL (the page then lists the matching values with their counts), so it works without
 * JavaScript. `facet` is the /v1 parameter the facet's values set (`input.company`, `utm_source`).
 */
export function FacetValueSearchForm({ waitlistId, state, facet, label, distinct }: { waitlistId: string; state: SignupTableParams; facet: string; label: string; distinct: number }) {
  const id = useId();
  const { navigate } = usePendingNavigation();
  const current = state.facet === facet ? (state.facet_q ?? "") : "";
  const [text, setText] = useState(current);
  const hidden = [...signupTableSearch({ ...state, facet: undefined, facet_q: undefined, page: 1 })];
  return (
    <form
      role="search"
      aria-label={`Search the values of ${label}`}
      action={`/waitlists/${waitlistId}`}
      method="get"
      className="flex gap-1.5"
      onSubmit={(event) => {
        event.preventDefault();
        const query = text.trim();
        navigate(signupTableHref(waitlistId, state, { facet: query ? facet : undefined, facet_q: query || undefined }), { replace: true });
      }}
    >
      {hidden.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="facet" value={facet} />
      <label htmlFor={id} className="sr-only">
        Search the values of {label}
      </label>
      <input
        id={id}
        type="search"
        name="facet_q"
        value={text}
        maxLength={200}
        placeholder={`Search its ${distinct.toLocaleString("en-US")} values`}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setText(event.target.value)}
        className={`${inputClass} min-w-0 flex-1 px-2 py-1 text-xs`}
      />
      <button type="submit" className={`${buttonClass} px-2 py-1 text-xs`}>
        Find
      </button>
    </form>
  );
}
