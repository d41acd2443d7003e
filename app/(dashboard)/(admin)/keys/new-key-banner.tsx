import { CopyButton } from "@/components/copy-button";
import type { NewKey } from "./actions";

/** The key just created, shown this once: it lives only in the response that created it (reloading the page does not show it again). */
export function NewKeyBanner({ created }: { created: NewKey }) {
  return (
    <section aria-labelledby="new-key-heading" className="mt-4 rounded-md border border-green-300 bg-green-50 p-4 text-sm text-green-950 dark:border-green-800 dark:bg-green-950 dark:text-green-50">
      <h2 id="new-key-heading" className="font-semibold">
        Key “{created.name}” created
      </h2>
      <p className="mt-1">Copy it now: it is shown only this once.</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <code data-testid="new-key" className="break-all rounded bg-white px-2 py-1 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100">
          {created.key}
        </code>
        <CopyButton value={created.key} label="Copy the new key" />
      </div>
    </section>
  );
}
