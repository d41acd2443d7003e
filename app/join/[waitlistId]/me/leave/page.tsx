import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { dangerButtonClass, linkClass, mutedText } from "@/components/styles";
import { personPageUrl, personViewOf } from "@/lib/join/person-view";
import { JoinCard } from "../../../join-card";
import { LinkProblem } from "../link-problem";

export const metadata: Metadata = { title: { absolute: "Leave the waitlist" }, robots: { index: false, follow: false } };

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** "Leave the list": what it does, and the button that does it (a POST: opening this page changes nothing). */
export default async function LeavePage({ params, searchParams }: Props) {
  const { waitlistId } = await params;
  const { t } = await searchParams;
  const view = await personViewOf(waitlistId, typeof t === "string" ? t : undefined);
  if (!view) notFound();
  if (view.kind !== "own") return <LinkProblem problem={view.kind} waitlistId={view.waitlist.id} waitlistName={view.waitlist.name} />;
  return (
    <JoinCard title={`Leave the ${view.waitlist.name} waitlist?`}>
      <p className="mt-3">
        This erases <strong className="break-words">{view.signup.email}</strong> from the list: your place, your answers and your referral link. It cannot be undone; you can join again later, at the end of the line.
      </p>
      <form method="post" action={`/join/${view.waitlist.id}/me/leave/confirm`} className="mt-4 flex flex-wrap items-center gap-3">
        <input type="hidden" name="t" value={view.token} />
        <button type="submit" className={`${dangerButtonClass} py-2`}>
          Leave the list and erase my data
        </button>
        <a href={personPageUrl(view.waitlist.id, view.token)} className={`${linkClass} text-sm`}>
          Keep my place
        </a>
      </form>
      <p className={`mt-4 text-sm ${mutedText}`}>Download your data first if you want a copy: it is on your page.</p>
    </JoinCard>
  );
}
