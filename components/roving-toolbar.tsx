"use client";

import { useEffect, useRef, type KeyboardEvent, type ReactNode } from "react";

const ITEM = "a[href], button:not([disabled])";

function itemsOf(root: HTMLElement | null): HTMLElement[] {
  return root ? [...root.querySelectorAll<HTMLElement>(ITEM)] : [];
}

function makeStop(items: HTMLElement[], stop: HTMLElement) {
  for (const item of items) item.tabIndex = item === stop ? 0 : -1;
}

const NEXT: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (index, count) => (index + 1) % count,
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowUp: (index, count) => (index - 1 + count) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * The links (or buttons) inside as one tab stop: the WAI-ARIA toolbar pattern with a roving tabindex.
 * Arrow keys, Home and End move between them, Enter and Space activate one. The stop is the item last
 * focused, else the current one (aria-current), else the first. Without JavaScript every item stays a
 * tab stop of its own: the tabindex is only set once the effect runs.
 */
export function RovingToolbar({ labelledBy, className, children }: { labelledBy: string; className?: string; children: ReactNode }) {
  const root = useRef<HTMLDivElement>(null);
  const last = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const items = itemsOf(root.current);
    if (items.length === 0) return;
    const remembered = last.current && items.includes(last.current) ? last.current : undefined;
    makeStop(items, remembered ?? items.find((item) => item.getAttribute("aria-current") === "true") ?? items[0]!);
  });

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = itemsOf(root.current);
    const index = items.indexOf(event.target as HTMLElement);
    if (index === -1 || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === " ") {
      event.preventDefault();
      items[index]!.click();
      return;
    }
    const move = NEXT[event.key];
    if (!move) return;
    event.preventDefault();
    items[move(index, items.length)]!.focus();
  }

  return (
    <div
      ref={root}
      role="toolbar"
      aria-orientation="vertical"
      aria-labelledby={labelledBy}
      className={className}
      onKeyDown={onKeyDown}
      onFocus={(event) => {
        const items = itemsOf(root.current);
        if (!items.includes(event.target)) return;
        last.current = event.target;
        makeStop(items, event.target);
      }}
    >
      {children}
    </div>
  );
}
