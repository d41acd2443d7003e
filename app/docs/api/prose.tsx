import { Fragment } from "react";

/** `code` spans of a description line. */
function Inline({ text }: { text: string }) {
  return text.split("`").map((part, index) =>
    index % 2 === 1 ? (
      <code key={index} className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.9em] dark:bg-zinc-800">
        {part}
      </code>
    ) : (
      <Fragment key={index}>{part}</Fragment>
    ),
  );
}

/** The small subset of Markdown the OpenAPI descriptions use: paragraphs, "- " lists and `code`. */
export function Prose({ text }: { text: string }) {
  return (
    <div className="space-y-3 leading-relaxed">
      {text.split("\n\n").map((block, index) => {
        const lines = block.split("\n");
        const items = lines.filter((line) => line.startsWith("- "));
        const lead = lines.filter((line) => !line.startsWith("- ")).join(" ");
        return (
          <div key={index} className="space-y-2">
            {lead && (
              <p>
                <Inline text={lead} />
              </p>
            )}
            {items.length > 0 && (
              <ul className="list-disc space-y-1 pl-6">
                {items.map((item) => (
                  <li key={item}>
                    <Inline text={item.slice(2)} />
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </div>
  );
}

export function CodeBlock({ code, label }: { code: string; label?: string }) {
  return (
    <figure className="space-y-1">
      {label && <figcaption className="text-sm font-medium text-zinc-600 dark:text-zinc-400">{label}</figcaption>}
      {/* A box that scrolls sideways must be reachable by keyboard (axe: scrollable-region-focusable). */}
      <pre tabIndex={0} className="overflow-x-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-sm leading-6 text-zinc-800 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
