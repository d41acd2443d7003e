import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { buttonClass, cardClass, dangerLinkClass, linkClass, mutedText } from "@/components/styles";
import type { EndpointView } from "@/lib/domain/webhooks/endpoints";
import { SendTestButton } from "./send-test-button";
import { TableHead } from "@/components/table-head";

const when = (date: Date | null) => (date ? `${formatDateTime(date)} UTC` : "—");

/** Every endpoint with its state and its actions; a disabled one says why. */
export function EndpointsTable({ endpoints, waitlistNames }: { endpoints: EndpointView[]; waitlistNames: Map<string, string> }) {
  if (endpoints.length === 0) return <p className={`mt-6 text-sm ${mutedText}`}>No webhook endpoints yet.</p>;
  return (
    <div className={`${cardClass} mt-6 overflow-x-auto`} role="region" aria-label="Webhook endpoints" tabIndex={0}>
      <table className="w-full text-left text-sm" data-testid="endpoints-table">
        <TableHead caption="Webhook endpoints, oldest first" headings={["URL", "Waitlist", "Event types", "State", "Failing since", "Actions"]} />
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id} id={`endpoint-${endpoint.id}`} data-endpoint-id={endpoint.id} className="target:bg-amber-50 dark:target:bg-amber-950">
              <th scope="row" className="max-w-xs break-all px-3 py-2 font-medium">
                {endpoint.url}
              </th>
              <td className="px-3 py-2">
                {endpoint.waitlistId === null ? (
                  "All"
                ) : (
                  <Link href={`/waitlists/${endpoint.waitlistId}`} prefetch={false} className={`${linkClass} break-words`}>
                    {waitlistNames.get(endpoint.waitlistId) ?? endpoint.waitlistId}
                  </Link>
                )}
              </td>
              <td className="px-3 py-2">{endpoint.eventTypes === null ? "All" : <span className="font-mono text-xs">{endpoint.eventTypes.join(", ")}</span>}</td>
              <td className="px-3 py-2" data-testid="endpoint-state">
                {endpoint.enabled ? (
                  <span className="font-medium text-green-800 dark:text-green-300">enabled</span>
                ) : (
                  <>
                    <span className="font-medium text-red-800 dark:text-red-300">disabled</span>
                    {endpoint.disabledReason ? <span className="block text-xs">{endpoint.disabledReason}</span> : null}
                  </>
                )}
              </td>
              <td className="whitespace-nowrap px-3 py-2">{when(endpoint.failingSince)}</td>
              <td className="px-3 py-2">
                <div className="flex flex-wrap items-center gap-2">
                  <form method="post" action="/webhooks/enabled">
                    <input type="hidden" name="id" value={endpoint.id} />
                    <input type="hidden" name="enabled" value={endpoint.enabled ? "false" : "true"} />
                    <button type="submit" className={`${buttonClass} px-2 py-1 text-xs`} aria-label={`${endpoint.enabled ? "Disable" : "Enable"} ${endpoint.url}`}>
                      {endpoint.enabled ? "Disable" : "Enable"}
                    </button>
                  </form>
                  <SendTestButton id={endpoint.id} url={endpoint.url} />
                  <Link href={`/deliveries?endpoint=${endpoint.id}`} prefetch={false} className={`${buttonClass} px-2 py-1 text-xs`} aria-label={`Deliveries to ${endpoint.url}`}>
                    Deliveries
                  </Link>
                  <Link href={`/webhooks/${endpoint.id}/rotate`} prefetch={false} className={`${buttonClass} px-2 py-1 text-xs`} aria-label={`Rotate the secret of ${endpoint.url}`}>
                    Rotate secret
                  </Link>
                  <Link href={`/webhooks/${endpoint.id}/remove`} prefetch={false} className={`${dangerLinkClass} px-2 py-1 text-xs`} aria-label={`Remove ${endpoint.url}`}>
                    Remove
                  </Link>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
