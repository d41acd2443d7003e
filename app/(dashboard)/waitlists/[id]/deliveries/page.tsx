import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DeliveryLog } from "@/components/delivery-log/delivery-log";
import { linkClass, mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";

export const metadata: Metadata = { title: "Deliveries" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// The delivery log of one waitlist's events (admins only).
export default async function WaitlistDeliveriesPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-1 break-words text-2xl font-semibold">Deliveries of {waitlist.name}</h1>
      <p className={`mt-1 text-sm ${mutedText}`}>
        The webhook posts and invitation emails of this waitlist&apos;s events, newest first. Endpoints are set on{" "}
        <Link href="/webhooks" className={`${linkClass} underline`}>
          Webhook endpoints
        </Link>
        , the email on{" "}
        <Link href={`/waitlists/${waitlist.id}/email`} className={`${linkClass} underline`}>
          Invitation email
        </Link>
        .
      </p>
      <DeliveryLog basePath={`/waitlists/${waitlist.id}/deliveries`} params={await searchParams} waitlistId={waitlist.id} />
    </>
  );
}
