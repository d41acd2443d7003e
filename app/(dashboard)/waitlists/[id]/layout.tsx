import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/copy-button";
import { focusRing, mutedText } from "@/components/styles";
import { WebsiteLink } from "@/components/website-link";
import { requireSession } from "@/lib/dashboard/auth";
import { findWaitlist } from "./find-waitlist";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  // The title names the waitlist: never for a request without a valid session.
  await requireSession();
  const waitlist = findWaitlist((await params).id);
  return { title: waitlist ? waitlist.name : "Waitlist not found" };
}

// The lookup happens here, outside the page's loading boundary, so an unknown id is a real 404.
export default async function WaitlistLayout({ params, children }: Params & { children: React.ReactNode }) {
  await requireSession();
  const waitlist = findWaitlist((await params).id);
  if (!waitlist) notFound();
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/" className={`${focusRing} rounded-sm ${mutedText} hover:text-zinc-950 dark:hover:text-white`}>
          ← All waitlists
        </Link>
      </nav>
      <div className="mt-2">
        <h1 className="break-words text-2xl font-semibold">{waitlist.name}</h1>
        <div className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <WebsiteLink website={waitlist.website} />
          <span className={`flex items-center gap-2 ${mutedText}`}>
            <span>
              ID <code className="break-all font-mono text-xs text-zinc-800 dark:text-zinc-200">{waitlist.id}</code>
            </span>
            <CopyButton value={waitlist.id} label="Copy waitlist id" />
          </span>
        </div>
      </div>
      {children}
    </>
  );
}
