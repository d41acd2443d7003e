import type { Metadata } from "next";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import { DeliveryLog } from "@/components/delivery-log/delivery-log";
import { mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";

export const metadata: Metadata = { title: "Delivery log" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Every webhook and email delivery of every waitlist, newest first, filtered by state and type (admins only).
export default async function DeliveriesPage({ searchParams }: Props) {
  await requireAdminSession();
  return (
    <>
      <Breadcrumbs trail={[HOME_CRUMB, ["/webhooks", "Webhook endpoints"]]} />
      <h1 className="mt-1 text-2xl font-semibold">Delivery log</h1>
      <p className={`mt-1 text-sm ${mutedText}`}>
        One row per webhook post or invitation email of an event. A failed attempt is retried on a schedule of seconds, then minutes, then hours, for about a day. The CLI shows the same: <code>webhooks deliveries</code>.
      </p>
      <DeliveryLog basePath="/deliveries" params={await searchParams} />
    </>
  );
}
