"use client";

import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { focusRing } from "./styles";

const linkClass = `${focusRing} sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-blue-700 shadow focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 dark:bg-zinc-900 dark:text-blue-400`;

/** Whether the page holds an element with this id, followed as the page streams in. */
function useHasElement(id: string, initially: boolean): boolean {
  const [present, setPresent] = useState(initially);
  useEffect(() => {
    const check = () => setPresent(document.getElementById(id) !== null);
    check();
    const observer = new MutationObserver(check);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [id]);
  return present;
}

/**
 * The first tab stops of every page, shown when focused: past the header to the content; on a
 * waitlist's page to its signups, then to its filters (from 768 px: a phone has them in a drawer).
 * The path tells the server which; the page itself has the last word (a waitlist that is not
 * found has no signups to skip to).
 */
export function SkipLink() {
  const waitlistPath = /^\/waitlists\/(?!new$)[^/]+$/.test(usePathname());
  const hasSignups = useHasElement("signups", waitlistPath);
  if (!(waitlistPath && hasSignups)) {
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
