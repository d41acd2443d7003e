"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * An instant in the reader's own time zone and language. The server cannot know them, so it
 * renders `fallback` (the UTC text) and the browser replaces it while hydrating.
 */
export function LocalTime({ iso, fallback }: { iso: string; fallback: string }) {
  const local = useSyncExternalStore(
    noSubscription,
    () => new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" }).format(new Date(iso)),
    () => null,
  );
  return <span data-testid="local-time">{local ?? fallback}</span>;
}
