import { CopyButton } from "@/components/copy-button";
import { focusRing, linkClass, mutedText } from "@/components/styles";

/** The /v1 request that returns the rows the current verified/referral filters select. */
export function ApiBox({ url, searchActive }: { url: string; searchActive: boolean }) {
  const curl = `curl -H "Authorization: Bearer <API_KEY>" '${url}'`;
  return (
    <details className="mt-8 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
      <summary className={`${focusRing} cursor-pointer rounded-sm text-sm font-semibold`}>
        Same data from the API
      </summary>
      <p className={`mt-3 text-sm ${mutedText}`}>
        This request returns the signups these filters select, in signup order, as a JSON array. Add <code>limit</code> (up to 1,000) to get pages
        and follow the <code>Link: rel=&quot;next&quot;</code> header. See the{" "}
        <a href="/docs/api" className={`${linkClass} underline`}>
          API reference
        </a>
        .
      </p>
      {searchActive ? (
        <p className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          The API has no email search: this request returns every signup the verified and referral filters select, without the search.
        </p>
      ) : null}
      <div className="mt-3 space-y-3">
        <div>
          <div className="flex items-center justify-between gap-2">
            <span className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">URL</span>
            <CopyButton value={url} label="Copy API URL" />
          </div>
          <pre tabIndex={0} aria-label="API URL" className={`${focusRing} mt-1 overflow-x-auto rounded-md bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-950`} data-testid="api-url">
            {url}
          </pre>
        </div>
        <div>
          <div className="flex items-center justify-between gap-2">
            <span className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">curl</span>
            <CopyButton value={curl} label="Copy curl command" />
          </div>
          <pre tabIndex={0} aria-label="curl command" className={`${focusRing} mt-1 overflow-x-auto rounded-md bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-950`}>
            {curl}
          </pre>
        </div>
      </div>
    </details>
  );
}
