import type { Metadata } from "next";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import { notFound } from "next/navigation";
import { formatDateTime } from "@/components/format";
import { ConfirmForm } from "@/components/confirm-form";
import { cardClass, mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { getApiKey, toApiKeySummary } from "@/lib/domain/keys/queries";

export const metadata: Metadata = { title: "Revoke an API key" };

type Props = { params: Promise<{ id: string }> };

// The confirmation step before revoking a key: what it is, and a warning when it signs this session out.
export default async function RevokeKeyPage({ params }: Props) {
  const session = await requireAdminSession();
  const row = await getApiKey((await params).id);
  if (!row) notFound();
  const key = toApiKeySummary(row);
  const ownKey = key.id === session.key.id;
  return (
    <div className="max-w-xl">
      <Breadcrumbs trail={[HOME_CRUMB, ["/keys", "API keys"]]} />
      <h1 className="mt-1 text-2xl font-semibold">Revoke the key “{key.name}”?</h1>
      <dl className={`${cardClass} mt-4 grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2 p-4 text-sm`}>
        <dt className={mutedText}>Prefix</dt>
        <dd>
          <code className="font-mono text-xs">{key.prefix}…</code>
        </dd>
        <dt className={mutedText}>Roles</dt>
        <dd>{key.roles.join(", ")}</dd>
        <dt className={mutedText}>Last used</dt>
        <dd>{row.lastUsedAt ? `${formatDateTime(row.lastUsedAt)} UTC` : "Never"}</dd>
      </dl>
      <p className="mt-4 text-sm">Whatever uses this key stops working at once, and every dashboard session signed in with it ends. This cannot be undone: a new key would have to be created and handed out.</p>
      {ownKey ? (
        <p role="alert" data-testid="own-key-warning" className="mt-4 rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          This is the key of your current session: revoking it signs you out, and you will need another admin key to sign in again.
        </p>
      ) : null}
      {key.revoked_at ? (
        <p className="mt-4 text-sm">This key is already revoked.</p>
      ) : (
        <ConfirmForm action="/keys/revoke" hidden={{ id: key.id }} submit={ownKey ? "Revoke my own key and sign out" : "Revoke key"} cancelHref="/keys" />
      )}
    </div>
  );
}
