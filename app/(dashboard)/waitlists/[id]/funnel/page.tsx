import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { buttonClass, inputClass, mutedText } from "@/components/styles";
import { requireSession } from "@/lib/dashboard/auth";
import { readInBackground } from "@/lib/dashboard/read-pool-client";
import { firstValues } from "@/lib/dashboard/search-params";
import { DAY_MS } from "@/lib/core/time";
import { parseInstant } from "@/lib/core/instant";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";
import { FunnelChart } from "./_components/funnel-chart";
import { FunnelStages } from "./_components/funnel-stages";
import { CohortTable, SourceTable } from "./_components/funnel-tables";

export const metadata: Metadata = { title: "Funnel" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** A day of the form (YYYY-MM-DD), read leniently: anything else is no bound. */
function dayOf(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const instant = parseInstant(text);
  return instant && Math.floor(instant.getTime() / DAY_MS);
}

// The funnel of one waitlist (lib/domain/funnel/stats.ts): the numbers of GET /v1/waitlist/{id}/stats
// and `waitlists stats`, read on a reader thread, server-rendered.
export default async function WaitlistFunnelPage({ params, searchParams }: Props) {
  await requireSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  const query = firstValues(await searchParams);
  let range = { fromDay: dayOf(query.from), toDay: dayOf(query.to) };
  if (range.fromDay !== undefined && range.toDay !== undefined && range.toDay < range.fromDay) range = { fromDay: range.fromDay, toDay: undefined };
  const stats = await readInBackground("funnelStats", waitlist.id, range);
  return (
    <>
      <Breadcrumb waitlist={waitlist} />
      <h1 className="mt-1 break-words text-2xl font-semibold">Funnel of {waitlist.name}</h1>
      <p className={`mt-1 text-sm ${mutedText}`}>
        From a view of the join page to a customer, for the people who joined in the range: each stage counts on the day its signup joined. Views are counted by this server, without cookies.
      </p>
      <form method="get" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Range of days of joining">
        <label className="flex flex-col gap-1 text-sm">
          From
          <input type="date" name="from" defaultValue={stats.from ?? ""} className={inputClass} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          To
          <input type="date" name="to" defaultValue={stats.to ?? ""} className={inputClass} />
        </label>
        <button type="submit" className={buttonClass}>
          Show
        </button>
      </form>
      <FunnelStages stats={stats} />
      <section aria-labelledby="funnel-days-heading" className="mt-6">
        <h2 id="funnel-days-heading" className="text-lg font-semibold">
          Per day
        </h2>
        {stats.days.length === 0 ? <p className={`mt-2 text-sm ${mutedText}`}>No views or joins in this range.</p> : <FunnelChart days={stats.days} />}
      </section>
      <CohortTable cohorts={stats.cohorts} />
      <SourceTable sources={stats.sources} />
    </>
  );
}
