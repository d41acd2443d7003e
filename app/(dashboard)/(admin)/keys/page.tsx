import type { Metadata } from "next";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import { DoneNotice } from "@/components/done-notice";
import { mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { MAX_KEY_NAME } from "@/lib/domain/keys/input";
import { ADMIN_ROLE, JOIN_ROLE, listApiKeys, REDEEM_ROLE, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { CreateKeyForm } from "./create-key-form";
import { KeysTable } from "./keys-table";

export const metadata: Metadata = { title: "API keys" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const DONE = { revoked: "Key revoked: it no longer works, and its sessions have ended." };

// Every API key (never a key itself: the create form shows the one it just made), with create and revoke (admins only).
export default async function KeysPage({ searchParams }: Props) {
  const session = await requireAdminSession();
  const { done } = await searchParams;
  return (
    <>
      <Breadcrumbs trail={[HOME_CRUMB]} />
      <h1 className="mt-1 text-2xl font-semibold">API keys</h1>
      <p className={`mt-1 text-sm ${mutedText}`}>
        Keys authorize the <code>/v1</code> API and sign in to this dashboard. Only a hash of each key is stored: a key is shown once, when it is created.
      </p>
      <DoneNotice done={done} messages={DONE} />
      <KeysTable keys={await listApiKeys()} sessionKeyId={session.key.id} />
      <CreateKeyForm viewRole={VIEW_ROLE} adminRole={ADMIN_ROLE} joinRole={JOIN_ROLE} redeemRole={REDEEM_ROLE} nameMaxLength={MAX_KEY_NAME} />
    </>
  );
}
