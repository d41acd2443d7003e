import Link from "next/link";
import { DoneNotice } from "@/components/done-notice";
import { linkClass } from "@/components/styles";
import { listDeliveries } from "@/lib/domain/deliveries/queries";
import { listEndpoints } from "@/lib/domain/webhooks/endpoints";
import { DeliveriesTable } from "./deliveries-table";
import { DeliveryFilters } from "./delivery-filters";
import { DELIVERY_PAGE_SIZE, deliveryHref, parseDeliveryParams } from "./delivery-params";

type SearchParams = Record<string, string | string[] | undefined>;

const DONE = { resent: "Delivery queued again: it is sent within seconds, with a fresh retry schedule." };

/**
 * A delivery log at `basePath` (every waitlist's, or one's): disabled endpoints that concern it and
 * why, the filters of the URL, the deliveries newest first, and Older/Newest links.
 */
export async function DeliveryLog({ basePath, params, waitlistId }: { basePath: string; params: SearchParams; waitlistId?: string }) {
  const query = parseDeliveryParams(params);
  // One more than shown, to know whether there is an older page.
  const rows = await listDeliveries({ ...query, waitlist: waitlistId, limit: DELIVERY_PAGE_SIZE + 1 });
  const shown = rows.slice(0, DELIVERY_PAGE_SIZE);
  const older = rows.length > DELIVERY_PAGE_SIZE ? deliveryHref(basePath, { ...query, before: shown.at(-1)!.id }) : undefined;
  const disabled = (await listEndpoints()).filter((endpoint) => !endpoint.enabled && (waitlistId === undefined || endpoint.waitlistId === null || endpoint.waitlistId === waitlistId) && (query.endpoint === undefined || endpoint.id === query.endpoint));
  return (
    <>
      <DoneNotice done={params.done} messages={DONE} />
      {disabled.length > 0 ? (
        <div role="status" data-testid="disabled-endpoints" className="mt-4 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          <p className="font-medium">
            {disabled.length === 1 ? "A webhook endpoint is disabled" : `${disabled.length} webhook endpoints are disabled`}: nothing is sent to {disabled.length === 1 ? "it" : "them"} until{" "}
            <Link href="/webhooks" className="underline">
              enabled again
            </Link>
            .
          </p>
          <ul className="mt-1 list-disc pl-5">
            {disabled.map((endpoint) => (
              <li key={endpoint.id} className="break-all">
                {endpoint.url}: {endpoint.disabledReason ?? "disabled by hand"}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <DeliveryFilters basePath={basePath} query={query} />
      <DeliveriesTable deliveries={shown} back={deliveryHref(basePath, query)} filtered={query.state !== undefined || query.type !== undefined || query.endpoint !== undefined} />
      <nav aria-label="Delivery log pages" className="mt-4 flex gap-4 text-sm">
        {query.before !== undefined ? (
          <Link href={deliveryHref(basePath, { ...query, before: undefined })} className={linkClass}>
            ← Newest
          </Link>
        ) : null}
        {older ? (
          <Link href={older} className={linkClass} data-testid="deliveries-older">
            Older →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
