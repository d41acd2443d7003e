"use client";

import { usePathname } from "next/navigation";
import { focusRing } from "./styles";

/** The first tab stop of every dashboard page, shown when focused: past the header, to the signups on a waitlist's page. */
export function SkipLink() {
  const signups = /^\/waitlists\/[^/]+$/.test(usePathname());
  return (
    <a
      href={signups ? "#signups" : "#main"}
      className={`${focusRing} sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-blue-700 shadow focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 dark:bg-zinc-900 dark:text-blue-400`}
    >
      {signups ? "Skip to signups" : "Skip to main content"}
    </a>
  );
}
