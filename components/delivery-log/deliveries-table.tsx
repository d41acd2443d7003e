import { formatDateTime } from "@/components/format";
import { buttonClass, cardClass, mutedText } from "@/components/styles";
import type { DeliveryState, DeliveryView } from "@/lib/domain/deliveries/queries";
import { TableHead } from "@/components/table-head";

const STATE_CLASS: Record<DeliveryState, string> = {
  pending: "text-amber-800 dark:text-amber-300",
  delivering: "text-blue-800 dark:text-blue-300",
  succeeded: "text-green-800 dark:text-green-300",
  failed: "text-red-800 dark:text-red-300",
  not_sent: "text-zinc-700 dark:text-zinc-300",
};

const when = (date: Date | null) => (date ? <time dateTime={date.toISOString()}>{formatDateTime(date)}</time> : "—");

/** Deliveries as given (newest first), each with Resend (a POST to /deliveries/resend that comes back to `back`). */
export function DeliveriesTable({ deliveries, back, filtered }: { deliveries: DeliveryView[]; back: string; filtered: boolean }) {
  if (deliveries.length === 0) return <p className={`mt-6 text-sm ${mutedText}`}>{filtered ? "No deliveries match these filters." : "Nothing has been delivered yet."}</p>;
  return (
    <div className={`${cardClass} mt-6 overflow-x-auto`} role="region" aria-label="Delivery log" tabIndex={0}>
      <table className="w-full text-left text-sm" data-testid="deliveries-table">
        <TableHead caption="Deliveries, newest first" headings={["Event", "Time (UTC)", "Target", "State", "Attempts", "Last response", "Next retry (UTC)", "Action"]} />
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {deliveries.map((delivery) => (
            <tr key={delivery.id} data-delivery-id={delivery.id} data-state={delivery.state}>
              <td className="px-3 py-2">
                <span className="font-mono text-xs">{delivery.eventType}</span>
                <span className={`block text-xs ${mutedText}`}>{delivery.eventId === null ? "no event" : `event ${delivery.eventId}`}</span>
              </td>
              <td className="whitespace-nowrap px-3 py-2">{when(delivery.createdAt)}</td>
              <td className="max-w-xs break-all px-3 py-2">
                <span className={`block text-xs ${mutedText}`}>{delivery.channel}</span>
                {delivery.target}
              </td>
              <td className={`whitespace-nowrap px-3 py-2 font-medium ${STATE_CLASS[delivery.state]}`}>{delivery.state.replace("_", " ")}</td>
              <td className="px-3 py-2 tabular-nums">{delivery.attempts}</td>
              <td className="max-w-xs break-words px-3 py-2" data-testid="delivery-response">
                {delivery.lastResponse ?? ""}
                {delivery.lastError ? <span className="block text-xs text-red-800 dark:text-red-300">{delivery.lastError}</span> : null}
                {delivery.lastResponse === null && delivery.lastError === null ? "—" : null}
              </td>
              <td className="whitespace-nowrap px-3 py-2">{delivery.state === "pending" ? when(delivery.nextAttemptAt) : "—"}</td>
              <td className="px-3 py-2">
                {delivery.state === "delivering" ? null : (
                  <form method="post" action="/deliveries/resend">
                    <input type="hidden" name="id" value={delivery.id} />
                    <input type="hidden" name="back" value={back} />
                    <button type="submit" className={`${buttonClass} px-2 py-1 text-xs`} aria-label={`Resend delivery ${delivery.id}`}>
                      Resend
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
