import { formatDateTime } from "@/components/format";
import { cardClass, mutedText } from "@/components/styles";
import type { AuditRow } from "@/lib/domain/audit/log";

/** Audit rows as given (newest first). */
export function AuditTable({ rows, filtered }: { rows: AuditRow[]; filtered: boolean }) {
  if (rows.length === 0) return <p className={`mt-6 text-sm ${mutedText}`}>{filtered ? "No audit rows match these filters." : "Nothing has been written yet."}</p>;
  return (
    <div className={`${cardClass} mt-6 overflow-x-auto`}>
      <table className="w-full text-left text-sm" data-testid="audit-table">
        <caption className="sr-only">Audit log, newest first</caption>
        <thead className={`border-b border-zinc-200 dark:border-zinc-800 ${mutedText}`}>
          <tr>
            {["Time (UTC)", "Actor", "Action", "Target", "Summary"].map((heading) => (
              <th key={heading} scope="col" className="px-3 py-2 font-medium">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {rows.map((row) => (
            <tr key={row.id} data-audit-id={row.id}>
              <td className="whitespace-nowrap px-3 py-2">
                <time dateTime={row.at.toISOString()}>{formatDateTime(row.at)}</time>
              </td>
              <td className="px-3 py-2">
                {row.actor}
                {row.actorKeyId ? <span className={`block font-mono text-xs ${mutedText}`}>{row.actorKeyId}</span> : null}
              </td>
              <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{row.action}</td>
              <td className="max-w-48 break-all px-3 py-2 font-mono text-xs">{row.target}</td>
              <td className="px-3 py-2">{row.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
