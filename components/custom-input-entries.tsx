import type { CustomInputEntry } from "./custom-inputs";
import { formatCount } from "./format";
import { mutedText } from "./styles";

/** Ends a text that was cut: an ellipsis, then how much is missing (read out by screen readers too). */
function CutMarker({ cut }: { cut: number | undefined }) {
  if (cut === undefined) return null;
  // One text per element: the markup is repeated for every cut text on the page, so it stays short.
  return (
    <>
      {"… "}
      <span className={`whitespace-nowrap font-sans text-xs ${mutedText}`}>{`(${formatCount(cut)} more character${cut === 1 ? "" : "s"} not shown)`}</span>
    </>
  );
}

/** Custom inputs as a readable key/value list (see previewCustomInputs); cut texts say so. */
export function CustomInputEntries({ entries, className = "" }: { entries: readonly CustomInputEntry[]; className?: string }) {
  if (entries.length === 0) return <p className={`text-sm ${mutedText} ${className}`}>This signup has no custom inputs.</p>;
  return (
    <dl className={`divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800 ${className}`} data-testid="custom-inputs">
      {entries.map((entry, index) => (
        // A long key takes at most half the width: the value keeps the other half.
        <div key={index} className="grid gap-1 px-3 py-2 sm:grid-cols-[minmax(8rem,max-content)_minmax(50%,1fr)] sm:gap-4">
          <dt className="break-words font-medium">
            {entry.key}
            <CutMarker cut={entry.keyCut} />
          </dt>
          <dd className="min-w-0 break-words">
            {entry.structured ? (
              <pre className="overflow-x-auto whitespace-pre-wrap font-mono text-xs">
                {entry.value}
                <CutMarker cut={entry.valueCut} />
              </pre>
            ) : (
              <>
                {entry.value}
                <CutMarker cut={entry.valueCut} />
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
