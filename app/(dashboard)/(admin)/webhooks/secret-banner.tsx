import { CopyButton } from "@/components/copy-button";

/** A signing secret just made, shown this once: it lives only in the response that made it (reloading the page does not show it again). */
export function SecretBanner({ url, secret, heading }: { url: string; secret: string; heading: string }) {
  return (
    <section aria-labelledby="new-secret-heading" className="mt-4 rounded-md border border-green-300 bg-green-50 p-4 text-sm text-green-950 dark:border-green-800 dark:bg-green-950 dark:text-green-50">
      <h2 id="new-secret-heading" className="font-semibold">
        {heading}
      </h2>
      <p className="mt-1 break-all">{url}</p>
      <p className="mt-1">Copy the signing secret now and give it to the receiver: it is shown only this once.</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <code data-testid="new-secret" className="break-all rounded bg-white px-2 py-1 font-mono text-xs text-zinc-900 dark:bg-zinc-900 dark:text-zinc-100">
          {secret}
        </code>
        <CopyButton value={secret} label="Copy the signing secret" />
      </div>
    </section>
  );
}
