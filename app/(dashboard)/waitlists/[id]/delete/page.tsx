import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { formatCount } from "@/components/format";
import { ConfirmForm } from "@/components/confirm-form";
import { mutedText } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { countSignups } from "@/lib/domain/signups/counts";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";

export const metadata: Metadata = { title: "Delete waitlist" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// The confirmation of a deletion: what goes, and the name to type (compared exactly by the server).
export default async function DeleteWaitlistPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  const mismatch = (await searchParams).error === "name";
  const { total } = await countSignups({ waitlistId: waitlist.id });
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
      <ConfirmForm
        action={`/waitlists/${waitlist.id}/delete/confirm`}
        typed={{
          label: (
            <>
              Type the waitlist&apos;s name, <strong className="break-words">{waitlist.name}</strong>, to confirm
            </>
          ),
        }}
        mismatch={mismatch ? "The name you typed is not the waitlist's name: nothing was deleted." : undefined}
        submit="Delete this waitlist and its signups"
        cancelHref={`/waitlists/${waitlist.id}`}
      />
    </>
  );
}
