"use client";

import { usePathname } from "next/navigation";
import { focusRing } from "./styles";

const linkClass = `${focusRing} sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-blue-700 shadow focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 dark:bg-zinc-900 dark:text-blue-400`;

/**
 * The first tab stops of every page, shown when focused: past the header to the content; on a
 * waitlist's page to its signups, then to its filters (from 768 px: a phone has them in a drawer).
 */
export function SkipLink() {
  const waitlist = /^\/waitlists\/[^/]+$/.test(usePathname());
  if (!waitlist) {
    return (
      <a href="#main" className={linkClass}>
        Skip to content
      </a>
    );
  }
  return (
    <>
      <a href="#signups" className={linkClass}>
        Skip to signups
      </a>
      <a href="#filters" className={`${linkClass} max-md:hidden`}>
        Skip to filters
      </a>
    </>
  );
}
