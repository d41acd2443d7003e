import type { Metadata } from "next";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { findEndpoint } from "../../find-endpoint";
import { RotateForm } from "../../rotate-form";

export const metadata: Metadata = { title: "Rotate a webhook secret" };

type Props = { params: Promise<{ id: string }> };

// The step before a new signing secret: what changes for the receiver; the secret is shown once, after.
export default async function RotateSecretPage({ params }: Props) {
  await requireAdminSession();
  const endpoint = await findEndpoint((await params).id);
  return (
    <div className="max-w-xl">
      <Breadcrumbs trail={[HOME_CRUMB, ["/webhooks", "Webhook endpoints"]]} />
      <h1 className="mt-1 text-2xl font-semibold">Rotate the signing secret?</h1>
      <p className="mt-2 break-all text-sm">{endpoint.url}</p>
      <p className="mt-4 text-sm">Every delivery from now on is signed with a new secret, shown once on this page. The receiver rejects them until it is given the new secret.</p>
      <RotateForm id={endpoint.id} />
    </div>
  );
}
