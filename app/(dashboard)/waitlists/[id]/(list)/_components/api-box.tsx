import { CopyButton } from "@/components/copy-button";
import { focusRing, linkClass, mutedText } from "@/components/styles";

function Command({ name, value, testId }: { name: string; value: string; testId: string }) {
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <span className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-300">{name}</span>
        <CopyButton value={value} label={`Copy ${name}`} />
      </div>
      <pre tabIndex={0} aria-label={name} className={`${focusRing} mt-1 overflow-x-auto rounded-md bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-950`} data-testid={testId}>
        {value}
      </pre>
    </div>
  );
}

/** The /v1 request, the curl command and the CLI export that return the signups every active filter (the search too) selects. */
export function ApiBox({ url, cli }: { url: string; cli: string }) {
  const curl = `curl -H "Authorization: Bearer <API_KEY>" '${url}'`;
  return (
    <details className="mt-6 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
      <summary className={`${focusRing} cursor-pointer rounded-sm text-sm font-semibold`}>Same data from the API</summary>
      <p className={`mt-3 text-sm ${mutedText}`}>
        This request returns the signups these filters and the search select, in signup order, as a JSON array. Add <code>limit</code> (up to
        1,000) to get pages and follow the <code>Link: rel=&quot;next&quot;</code> header. See the{" "}
        <a href="/docs/api" className={`${linkClass} underline`}>
          API reference
        </a>
        . The CLI command writes the same signups as the CSV export.
      </p>
      <div className="mt-3 space-y-3">
        <Command name="API URL" value={url} testId="api-url" />
        <Command name="curl command" value={curl} testId="api-curl" />
        <Command name="CLI export" value={cli} testId="api-cli" />
      </div>
    </details>
  );
}
