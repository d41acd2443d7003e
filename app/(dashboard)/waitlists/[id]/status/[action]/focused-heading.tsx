"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * The confirmation's question as the page's heading, focused when the page opens: a screen reader
 * reads it first, and the next Tab reaches the page's own links and its confirm button, not the
 * header's (the confirm button itself is never the default: one stray Enter must not send emails).
 */
export function FocusedHeading({ children }: { children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <h1 ref={heading} tabIndex={-1} className="mt-2 break-words text-2xl font-semibold focus:outline-none">
      {children}
    </h1>
  );
}
