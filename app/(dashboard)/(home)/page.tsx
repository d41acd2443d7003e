import type { Metadata } from "next";
import { requireSession } from "@/lib/dashboard/auth";
import { parseWaitlistTableParams } from "@/lib/domain/list-params";
import { listWaitlistSummaries } from "@/lib/domain/waitlists/queries";
import { WaitlistsTable } from "./waitlists-table";

export const metadata: Metadata = { title: "Waitlists" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireSession();
  const state = parseWaitlistTableParams(await searchParams);
  const waitlists = listWaitlistSummaries({ search: state.q, sort: state.sort, direction: state.dir });
  return (
    <>
      <h1 className="text-2xl font-semibold">Waitlists</h1>
      <WaitlistsTable waitlists={waitlists} state={state} />
    </>
  );
}
