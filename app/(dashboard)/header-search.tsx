"use client";

import Form from "next/form";
import { usePathname } from "next/navigation";
import { inputClass } from "@/components/styles";
import { MAX_EMAIL_LENGTH } from "@/lib/domain/signups/email-address";

/** The header's "find a person" box (from 640 px; a phone's header has a Find link), left out on the finder's own pages, which have theirs. */
export function HeaderSearch() {
  if (usePathname().startsWith("/find")) return null;
  return (
    <Form action="/find" role="search" aria-label="Find a person" className="hidden gap-2 sm:flex sm:flex-1 sm:justify-center">
      <label htmlFor="header-find" className="sr-only">
        Find a person by email, across all waitlists
      </label>
      <input
        id="header-find"
        type="search"
        name="email"
        maxLength={MAX_EMAIL_LENGTH}
        placeholder="Find a person by email"
        autoComplete="off"
        spellCheck={false}
        className={`${inputClass} w-full min-w-0 max-w-xs py-1`}
      />
    </Form>
  );
}
