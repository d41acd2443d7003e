import { formatCount, formatDateTime } from "@/components/format";
import { cardClass, mutedText } from "@/components/styles";
import type { AuditRow } from "@/lib/domain/audit/log";
import { AUDIT_TARGET_KIND, type auditTargetNames } from "@/lib/domain/audit/targets";
import { AuditTarget, ShortId } from "./audit-target";
import { TableHead } from "@/components/table-head";

/** Whole numbers of 4+ digits standing alone in a summary ("imported 300000 signups"), not parts of ids, prefixes or dates. */
const BARE_NUMBER = /(?<![\w.:\-…])\d{4,}(?![\w.:\-])/g;

function readableSummary(summary: string): string {
  return summary.replace(BARE_NUMBER, (digits) => formatCount(Number(digits)));
}

/** Audit rows as given (newest first), naming what they are about. */
export function AuditTable({ rows, names, filtered }: { rows: AuditRow[]; names: Awaited<ReturnType<typeof auditTargetNames>>; filtered: boolean }) {
  if (rows.length === 0) return <p className={`mt-6 text-sm ${mutedText}`}>{filtered ? "No audit rows match these filters." : "Nothing has been written yet."}</p>;
  return (
    <div className={`${cardClass} mt-6 overflow-x-auto`} role="region" aria-label="Audit log" tabIndex={0}>
      <table className="w-full text-left text-sm" data-testid="audit-table">
        <TableHead caption="Audit log, newest first" headings={["Time (UTC)", "Actor", "Action", "Target", "Summary"]} />
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {rows.map((row) => {
            const kind = AUDIT_TARGET_KIND[row.action];
            return (
              <tr key={row.id} data-audit-id={row.id}>
                <td className="whitespace-nowrap px-3 py-2">
                  <time dateTime={row.at.toISOString()}>{formatDateTime(row.at)}</time>
                </td>
                <td className="px-3 py-2">
                  <span className="break-words">{row.actor}</span>
                  {row.actorKeyId ? (
                    <span className="block">
                      <ShortId value={row.actorKeyId} />
                    </span>
                  ) : null}
                </td>
                <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{row.action}</td>
                <td className="px-3 py-2" data-testid="audit-target">
                  <AuditTarget kind={kind} target={row.target} name={kind === "waitlist" ? names.waitlists.get(row.target) : kind === "key" ? names.keys.get(row.target) : undefined} />
                </td>
                <td className="px-3 py-2">{readableSummary(row.summary)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
