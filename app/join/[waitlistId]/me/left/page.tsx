import type { Metadata } from "next";
import { linkClass, mutedText } from "@/components/styles";
import { JoinCard } from "../../../join-card";

export const metadata: Metadata = { title: { absolute: "You left the waitlist" }, robots: { index: false, follow: false } };

type Props = { params: Promise<{ waitlistId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** After leaving (POST /join/{id}/me/leave/confirm): says it is done, and whether the disk still holds an old copy for a moment. */
export default async function LeftPage({ params, searchParams }: Props) {
  const { waitlistId } = await params;
  const { disk } = await searchParams;
  return (
    <JoinCard title="You left the waitlist">
      <p role="status" data-testid="left-notice" className="mt-3">
        Your address and answers are erased from the list.
      </p>
      {disk === "later" ? <p className={`mt-2 text-sm ${mutedText}`}>A copy still being read elsewhere leaves the disk as soon as that read ends, automatically.</p> : null}
      <p className="mt-6 text-sm">
        <a href={`/join/${encodeURIComponent(waitlistId)}`} className={linkClass}>
          Back to the join page
        </a>
      </p>
    </JoinCard>
  );
}
