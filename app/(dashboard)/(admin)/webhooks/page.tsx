import type { Metadata } from "next";
import Link from "next/link";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import { DoneNotice } from "@/components/done-notice";
import { linkClass, mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { EVENT_TYPES } from "@/lib/domain/events";
import { getWaitlist, listWaitlistSummaries } from "@/lib/domain/waitlists/queries";
import { listEndpoints, MAX_ENDPOINT_URL } from "@/lib/domain/webhooks/endpoints";
import { AddEndpointForm } from "./add-endpoint-form";
import { EndpointsTable } from "./endpoints-table";

export const metadata: Metadata = { title: "Webhook endpoints" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const DONE = {
  removed: "Endpoint removed, with its deliveries.",
  enabled: "Endpoint enabled: its failure record is cleared, and new events are sent to it.",
  disabled: "Endpoint disabled: nothing is sent to it, and its waiting deliveries are marked failed.",
};

// Every webhook endpoint (never a secret: adding and rotating show theirs once), with add, disable/enable, rotate and remove (admins only).
export default async function WebhooksPage({ searchParams }: Props) {
  await requireAdminSession();
  const { done } = await searchParams;
  const endpoints = await listEndpoints();
  const waitlistIds = new Set(endpoints.flatMap(({ waitlistId }) => (waitlistId ? [waitlistId] : [])));
  const waitlistNames = new Map(await Promise.all([...waitlistIds].map(async (id) => [id, (await getWaitlist(id))?.name ?? id] as const)));
  return (
    <>
      <Breadcrumbs trail={[HOME_CRUMB]} />
      <h1 className="mt-1 text-2xl font-semibold">Webhook endpoints</h1>
      <p className={`mt-1 text-sm ${mutedText}`}>
        Each event (a signup invited, rejected, …) is posted to every enabled endpoint that wants it, signed like Standard Webhooks, and retried for about a day. See{" "}
        <Link href="/docs/webhooks" className={`${linkClass} underline`}>
          Webhooks
        </Link>{" "}
        for verifying signatures, and{" "}
        <Link href="/deliveries" className={`${linkClass} underline`}>
          the delivery log
        </Link>{" "}
        for what was sent. The CLI does the same: <code>webhooks …</code>.
      </p>
      <DoneNotice done={done} messages={DONE} />
      <EndpointsTable endpoints={endpoints} waitlistNames={waitlistNames} />
      <AddEndpointForm eventTypes={EVENT_TYPES} waitlists={(await listWaitlistSummaries()).map(({ id, name }) => ({ id, name }))} urlMaxLength={MAX_ENDPOINT_URL} />
    </>
  );
}
