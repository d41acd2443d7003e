import Link from "next/link";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/copy-button";
import { buttonClass, dangerLinkClass, linkClass, mutedText } from "@/components/styles";
import { WebsiteLink } from "@/components/website-link";
import { requireSession, sessionIsAdmin } from "@/lib/dashboard/auth";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";

// The waitlist's header, above the loading boundary of its signups (the signup pages have their own).
export default async function WaitlistHeaderLayout({ params, children }: { params: Promise<{ id: string }>; children: React.ReactNode }) {
  const session = await requireSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  return (
    <>
      <Breadcrumb />
      <div className="mt-1 flex flex-wrap items-baseline gap-x-4 gap-y-1">
        <h1 className="break-words text-2xl font-semibold">{waitlist.name}</h1>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <WebsiteLink website={waitlist.website} />
          <span className={`flex items-center gap-2 ${mutedText}`}>
            <span className="max-sm:sr-only">
              ID <code className="break-all font-mono text-xs text-zinc-800 dark:text-zinc-200">{waitlist.id}</code>
            </span>
            <CopyButton value={waitlist.id} label="Copy waitlist id" />
          </span>
          {/* An admin has it among the buttons, which keep to one line on a phone. */}
          {sessionIsAdmin(session) ? null : (
            <Link href={`/waitlists/${waitlist.id}/funnel`} className={linkClass}>
              Funnel
            </Link>
          )}
        </div>
        {sessionIsAdmin(session) ? (
          <div className="flex gap-2 whitespace-nowrap max-sm:-my-1 max-sm:w-full max-sm:overflow-x-auto max-sm:py-1 sm:ml-auto">
            {/* One line on a phone (short labels; it scrolls sideways if it must). */}
            <Link href={`/waitlists/${waitlist.id}/funnel`} className={buttonClass}>
              Funnel
            </Link>
            <Link href={`/waitlists/${waitlist.id}/deliveries`} className={buttonClass}>
              <span className="sm:hidden">Log</span>
              <span className="max-sm:hidden">Deliveries</span>
            </Link>
            <Link href={`/waitlists/${waitlist.id}/join`} className={buttonClass}>
              Joining
            </Link>
            <Link href={`/waitlists/${waitlist.id}/review`} className={buttonClass}>
              Review
            </Link>
            <Link href={`/waitlists/${waitlist.id}/email`} className={buttonClass}>
              <span className="sm:hidden">Invitation</span>
              <span className="max-sm:hidden">Invitation email</span>
            </Link>
            <Link href={`/waitlists/${waitlist.id}/import`} className={buttonClass}>
              Import…
            </Link>
            <Link href={`/waitlists/${waitlist.id}/edit`} className={buttonClass}>
              Edit
            </Link>
            <Link href={`/waitlists/${waitlist.id}/delete`} className={dangerLinkClass}>
              Delete…
            </Link>
          </div>
        ) : null}
      </div>
      {children}
    </>
  );
}
