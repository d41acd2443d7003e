import type { Metadata } from "next";
import { DoneNotice } from "@/components/done-notice";
import { erasedDataStillOnDisk } from "@/lib/domain/signups/erase";
import { requireSession, sessionIsAdmin } from "@/lib/dashboard/auth";
import { parseWaitlistTableParams } from "@/lib/dashboard/waitlist-table";
import { listWaitlistSummaries } from "@/lib/domain/waitlists/queries";
import { NewWaitlistForm } from "./new-waitlist-form";
import { WaitlistsTable } from "./waitlists-table";

export const metadata: Metadata = { title: "Waitlists" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requireSession();
  const params = await searchParams;
  const state = parseWaitlistTableParams(params);
  const waitlists = await listWaitlistSummaries({ search: state.q, sort: state.sort, direction: state.dir });
  return (
    <>
      <h1 className="text-2xl font-semibold">Waitlists</h1>
      <DoneNotice done={params.done} messages={{ deleted: "The waitlist and its signups were deleted.", "deleted-on-disk": `The waitlist and its signups were deleted. ${erasedDataStillOnDisk()}` }} />
      {sessionIsAdmin(session) ? <NewWaitlistForm /> : null}
      <WaitlistsTable waitlists={waitlists} state={state} />
    </>
  );
}
