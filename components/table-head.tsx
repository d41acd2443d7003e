import { mutedText } from "./styles";

/** The screen-reader caption and the one header row of a plain listing table (keys, webhooks, deliveries, audit). */
export function TableHead({ caption, headings }: { caption: string; headings: readonly string[] }) {
  return (
    <>
      <caption className="sr-only">{caption}</caption>
      <thead className={`border-b border-zinc-200 dark:border-zinc-800 ${mutedText}`}>
        <tr>
          {headings.map((heading) => (
            <th key={heading} scope="col" className="px-3 py-2 font-medium">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
    </>
  );
}
