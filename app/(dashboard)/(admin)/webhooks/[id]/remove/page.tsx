import type { Metadata } from "next";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import { ConfirmForm } from "@/components/confirm-form";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { findEndpoint } from "../../find-endpoint";

export const metadata: Metadata = { title: "Remove a webhook endpoint" };

type Props = { params: Promise<{ id: string }> };

// The confirmation step before removing an endpoint and its delivery log.
export default async function RemoveEndpointPage({ params }: Props) {
  await requireAdminSession();
  const endpoint = await findEndpoint((await params).id);
  return (
    <div className="max-w-xl">
      <Breadcrumbs trail={[HOME_CRUMB, ["/webhooks", "Webhook endpoints"]]} />
      <h1 className="mt-1 text-2xl font-semibold">Remove this webhook endpoint?</h1>
      <p className="mt-2 break-all text-sm">{endpoint.url}</p>
      <p className="mt-4 text-sm">No event is sent to it any more, and its deliveries leave the log, waiting or sent. This cannot be undone: to stop it for a while, disable it instead.</p>
      <ConfirmForm action="/webhooks/remove" hidden={{ id: endpoint.id }} submit="Remove endpoint" cancelHref="/webhooks" />
    </div>
  );
}
