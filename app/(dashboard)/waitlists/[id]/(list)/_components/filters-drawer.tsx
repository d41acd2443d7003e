"use client";

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { buttonClass, primaryButtonClass } from "@/components/styles";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([type="hidden"]), select, [tabindex]:not([tabindex="-1"])';

/** The drawer's id: its button sits in the table's toolbar, elsewhere in the page. */
const FILTERS_DRAWER = "filters-drawer";

/** Opens the filters drawer (below 768 px only); `count` is how many filters are active. */
export function FiltersButton({ count }: { count: number }) {
  return (
    <button type="button" popoverTarget={FILTERS_DRAWER} className={`${buttonClass} md:hidden`}>
      Filters ({count})
    </button>
  );
}

/**
 * Below 768 px the filters live in a drawer behind a "Filters (n)" button; from 768 px they are shown
 * in place and the button is gone. The drawer is a popover (popovertarget opens it without JavaScript;
 * Escape and a click outside close it; focus returns to the button); with JavaScript it is also a
 * labelled modal dialog that keeps Tab inside and focuses its close button when it opens.
 */
export function FiltersDrawer({ children }: { children: ReactNode }) {
  const id = FILTERS_DRAWER;
  const titleId = `${useId()}-title`;
  const drawer = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  // A dialog only while open: from 768 px the same element is the filters in place, no dialog.
  const [open, setOpen] = useState(false);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "Tab" || !drawer.current?.matches(":popover-open")) return;
    const items = [...drawer.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((item) => item.offsetParent !== null || item === document.activeElement);
    const [first, last] = [items[0], items.at(-1)];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="flex min-w-0 flex-col">
      <div
        id={id}
        ref={drawer}
        popover="auto"
        role={open ? "dialog" : undefined}
        aria-modal={open ? "true" : undefined}
        aria-labelledby={open ? titleId : undefined}
        onKeyDown={onKeyDown}
        onToggle={(event) => {
          const opened = (event.nativeEvent as ToggleEvent).newState === "open";
          setOpen(opened);
          if (opened) close.current?.focus();
        }}
        className="inset-y-0 left-0 right-auto m-0 h-dvh max-h-none w-[min(22rem,calc(100vw-2.5rem))] overflow-y-auto border-r border-zinc-200 bg-white p-4 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 md:static md:block md:h-auto md:w-auto md:overflow-visible md:border-0 md:bg-transparent md:p-0 md:text-inherit md:shadow-none dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100 md:dark:bg-transparent"
      >
        <div className="mb-4 flex items-center justify-between gap-3 md:hidden">
          <h2 id={titleId} className="text-lg font-semibold">
            Filters
          </h2>
          <button ref={close} type="button" popoverTarget={id} popoverTargetAction="hide" className={buttonClass}>
            Close
          </button>
        </div>
        {children}
        <div className="mt-5 md:hidden">
          <button type="button" popoverTarget={id} popoverTargetAction="hide" className={`${primaryButtonClass} w-full`}>
            Show signups
          </button>
        </div>
      </div>
    </div>
  );
}
