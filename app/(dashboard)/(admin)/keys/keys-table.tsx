import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { cardClass, dangerLinkClass, mutedText } from "@/components/styles";
import type { ApiKeySummary, KeyStatus } from "@/lib/domain/keys/queries";
import { TableHead } from "@/components/table-head";

const when = (iso: string | null, none: string) => (iso ? `${formatDateTime(new Date(iso))} UTC` : none);

const STATUS_CLASS: Record<KeyStatus, string> = {
  active: "text-green-800 dark:text-green-300",
  revoked: "text-red-800 dark:text-red-300",
  expired: "text-amber-800 dark:text-amber-300",
};

/** Every key with its state; an active key links to its revoke confirmation. */
export function KeysTable({ keys, sessionKeyId }: { keys: (ApiKeySummary & { status: KeyStatus })[]; sessionKeyId: string }) {
  if (keys.length === 0) return <p className={`mt-6 text-sm ${mutedText}`}>No API keys yet.</p>;
  return (
    <div className={`${cardClass} mt-6 overflow-x-auto`}>
      <table className="w-full text-left text-sm" data-testid="keys-table">
        <TableHead caption="API keys, oldest first" headings={["Name", "Prefix", "Roles", "Created", "Last used", "Expires", "Status", "Action"]} />
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {keys.map((key) => (
            <tr key={key.id} id={`key-${key.id}`} data-key-id={key.id} className="target:bg-amber-50 dark:target:bg-amber-950">
              <th scope="row" className="px-3 py-2 font-medium">
                {key.name}
                {key.id === sessionKeyId ? <span className={`ml-2 text-xs font-normal ${mutedText}`}>(this session)</span> : null}
              </th>
              <td className="px-3 py-2">
                <code className="font-mono text-xs">{key.prefix}…</code>
              </td>
              <td className="px-3 py-2">{key.roles.join(", ")}</td>
              <td className="whitespace-nowrap px-3 py-2">{when(key.created_at, "—")}</td>
              <td className="whitespace-nowrap px-3 py-2">{when(key.last_used_at, "Never")}</td>
              <td className="whitespace-nowrap px-3 py-2">{when(key.expires_at, "Never")}</td>
              <td className={`px-3 py-2 font-medium ${STATUS_CLASS[key.status]}`}>{key.status}</td>
              <td className="px-3 py-2">
                {key.status === "active" ? (
                  <Link href={`/keys/${key.id}/revoke`} prefetch={false} className={`${dangerLinkClass} px-2 py-1 text-xs`} aria-label={`Revoke ${key.name} (${key.prefix}…)`}>
                    Revoke
                  </Link>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
