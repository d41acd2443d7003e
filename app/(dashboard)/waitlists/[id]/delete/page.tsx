import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatCount } from "@/components/format";
import { dangerButtonClass, inputClass, linkClass, mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { countSignups } from "@/lib/domain/signups/counts";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";

export const metadata: Metadata = { title: "Delete waitlist" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// The confirmation of a deletion: what goes, and the name to type (compared exactly by the server).
export default async function DeleteWaitlistPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const waitlist = findWaitlist((await params).id);
  if (!waitlist) notFound();
  const mismatch = (await searchParams).error === "name";
  const { total } = countSignups({ waitlistId: waitlist.id });
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-2 break-words text-2xl font-semibold">Delete {waitlist.name}?</h1>
      <div className="mt-4 max-w-2xl space-y-3 text-sm">
        <p>This deletes, for good:</p>
        <ul className="list-disc space-y-1 pl-5" data-testid="what-goes">
          <li>
            the waitlist <strong className="break-words">{waitlist.name}</strong> (<span className="break-all">{waitlist.website}</span>, id <code className="text-xs">{waitlist.id}</code>);
          </li>
          <li>
            its <strong>{formatCount(total)}</strong> signup{total === 1 ? "" : "s"}, with their counts, custom inputs and search entries.
          </li>
        </ul>
        <p className={mutedText}>It cannot be undone. CSV files exported before and database backups keep their copies.</p>
      </div>
      <form method="post" action={`/waitlists/${waitlist.id}/delete/confirm`} className="mt-6 grid max-w-2xl gap-3">
        <label className="grid gap-1 text-sm font-medium">
          <span>
            Type the waitlist&apos;s name, <strong className="break-words">{waitlist.name}</strong>, to confirm
          </span>
          <input name="confirm" required maxLength={200} autoComplete="off" spellCheck={false} aria-invalid={mismatch || undefined} className={`${inputClass} w-full max-w-md`} />
        </label>
        {mismatch ? (
          <p role="alert" data-testid="name-mismatch" className="text-sm text-red-700 dark:text-red-400">
            The name you typed is not the waitlist&apos;s name: nothing was deleted.
          </p>
        ) : null}
        <div className="flex items-center gap-4">
          <button type="submit" className={dangerButtonClass}>
            Delete this waitlist and its signups
          </button>
          <Link href={`/waitlists/${waitlist.id}`} className={`${linkClass} text-sm`}>
            Cancel
          </Link>
        </div>
      </form>
    </>
  );
}
