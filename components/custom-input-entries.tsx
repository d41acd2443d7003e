import { describeCustomInputs } from "./custom-inputs";
import { mutedText } from "./styles";

/** A signup's custom inputs as a readable key/value list (see describeCustomInputs). */
export function CustomInputEntries({ inputs, className = "" }: { inputs: readonly unknown[]; className?: string }) {
  const entries = describeCustomInputs(inputs);
  if (entries.length === 0) return <p className={`text-sm ${mutedText} ${className}`}>This signup has no custom inputs.</p>;
  return (
    <dl className={`divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800 ${className}`} data-testid="custom-inputs">
      {entries.map((entry, index) => (
        <div key={index} className="grid gap-1 px-3 py-2 sm:grid-cols-[minmax(8rem,max-content)_1fr] sm:gap-4">
          <dt className="break-words font-medium">{entry.key}</dt>
          <dd className="min-w-0 break-words">{entry.structured ? <pre className="overflow-x-auto whitespace-pre-wrap font-mono text-xs">{entry.value}</pre> : entry.value}</dd>
        </div>
      ))}
    </dl>
  );
}
