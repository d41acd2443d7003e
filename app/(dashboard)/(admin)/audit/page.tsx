import type { Metadata } from "next";
import { Breadcrumbs, HOME_CRUMB } from "@/components/breadcrumbs";
import Link from "next/link";
import { linkClass, mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { listAudit } from "@/lib/domain/audit/log";
import { auditTargetNames } from "@/lib/domain/audit/targets";
import { AUDIT_PAGE_SIZE, auditHref, parseAuditParams } from "./audit-params";
import { AuditFilters } from "./audit-filters";
import { AuditTable } from "./audit-table";

export const metadata: Metadata = { title: "Audit log" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Every write made from the dashboard or the CLI, newest first, filtered by action and actor (admins only).
export default async function AuditPage({ searchParams }: Props) {
  await requireAdminSession();
  const query = parseAuditParams(await searchParams);
  // One more than shown, to know whether there is an older page.
  const rows = await listAudit({ ...query, limit: AUDIT_PAGE_SIZE + 1 });
  const shown = rows.slice(0, AUDIT_PAGE_SIZE);
  const older = rows.length > AUDIT_PAGE_SIZE ? auditHref({ ...query, before: shown.at(-1)!.id }) : undefined;
  return (
    <>
      <Breadcrumbs trail={[HOME_CRUMB]} />
      <h1 className="mt-1 text-2xl font-semibold">Audit log</h1>
      <p className={`mt-1 text-sm ${mutedText}`}>
        One row per write, from this dashboard (the session&apos;s key) or the CLI (<code>cli</code>). Erasures name the address only by a keyed hash. The CLI shows the same: <code>audit list</code>.
      </p>
      <AuditFilters action={query.action} actor={query.actor} />
      <AuditTable rows={shown} names={await auditTargetNames(shown)} filtered={query.action !== undefined || query.actor !== undefined} />
      <nav aria-label="Audit log pages" className="mt-4 flex gap-4 text-sm">
        {query.before !== undefined ? (
          <Link href={auditHref({ ...query, before: undefined })} className={linkClass}>
            ← Newest
          </Link>
        ) : null}
        {older ? (
          <Link href={older} className={linkClass} data-testid="audit-older">
            Older →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
