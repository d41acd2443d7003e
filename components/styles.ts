// Shared class names, so focus rings and controls look the same everywhere.
// Tailwind 4's outline-2 takes its style from --tw-outline-style, so the style is spelled out.
export const focusRing =
  "focus-visible:outline-2 focus-visible:outline-solid focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400";

export const buttonClass = `${focusRing} inline-flex items-center justify-center gap-1.5 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 shadow-xs hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800`;

export const primaryButtonClass = `${focusRing} inline-flex items-center justify-center gap-1.5 rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-blue-800 disabled:opacity-50 dark:bg-blue-600 dark:hover:bg-blue-500`;

export const dangerButtonClass = `${focusRing} inline-flex items-center justify-center gap-1.5 rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white shadow-xs hover:bg-red-800 disabled:opacity-50 dark:bg-red-600 dark:hover:bg-red-500`;

/** The way into a destructive action (its confirmation page): a secondary button in the danger colour; disabled, it looks like any disabled button. */
export const dangerLinkClass = `${focusRing} inline-flex items-center justify-center gap-1.5 rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 shadow-xs hover:bg-red-50 dark:border-red-800 dark:bg-zinc-900 dark:text-red-300 dark:hover:bg-red-950 disabled:border-zinc-300 disabled:text-zinc-800 disabled:opacity-50 disabled:hover:bg-white dark:disabled:border-zinc-700 dark:disabled:text-zinc-100 dark:disabled:hover:bg-zinc-900`;

export const inputClass = `${focusRing} block rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-900 placeholder:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400`;

export const linkClass = `${focusRing} rounded-sm text-blue-700 underline-offset-2 hover:underline dark:text-blue-400`;

export const cardClass = "rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900";

export const mutedText = "text-zinc-600 dark:text-zinc-400";
