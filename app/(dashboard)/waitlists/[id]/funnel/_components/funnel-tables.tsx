import { formatCount } from "@/components/format";
import { mutedText } from "@/components/styles";
import type { FunnelCohort, FunnelSource } from "@/lib/domain/funnel/stats";
import { percent } from "./funnel-stages";

const cell = "px-2 py-1 text-right tabular-nums";
const head = "px-2 py-1 text-right font-medium";

function Counts({ row }: { row: FunnelCohort | FunnelSource }) {
  return (
    <>
      <td className={cell}>{formatCount(row.joined)}</td>
      <td className={cell}>{formatCount(row.verified)}</td>
      <td className={cell}>{formatCount(row.invited)}</td>
      <td className={cell}>{formatCount(row.completed)}</td>
      <td className={cell}>{formatCount(row.expired)}</td>
      <td className={cell}>{percent(row.rates.join_to_invited)}</td>
      <td className={cell}>{percent(row.rates.join_to_completed)}</td>
    </>
  );
}

function CountHeads() {
  return ["Joined", "Verified", "Invited", "Completed", "Expired", "Invited %", "Completed %"].map((title) => (
    <th key={title} scope="col" className={head}>
      {title}
    </th>
  ));
}

/** Per week of joining: of those who joined that week, how many reached each stage. */
export function CohortTable({ cohorts }: { cohorts: FunnelCohort[] }) {
  return (
    <section aria-labelledby="funnel-cohorts-heading" className="mt-6">
      <h2 id="funnel-cohorts-heading" className="text-lg font-semibold">
        Weekly cohorts
      </h2>
      {cohorts.length === 0 ? (
        <p className={`mt-2 text-sm ${mutedText}`}>Nobody joined in this range.</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-sm" data-testid="funnel-cohorts">
            <thead>
              <tr>
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Week of
                </th>
                <CountHeads />
              </tr>
            </thead>
            <tbody>
              {cohorts.map((cohort) => (
                <tr key={cohort.week} className="border-t border-zinc-200 dark:border-zinc-800">
                  <th scope="row" className="px-2 py-1 text-left font-normal">
                    {cohort.week}
                  </th>
                  <Counts row={cohort} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Per source (utm_source, else the referring site): joins and how far they went. */
export function SourceTable({ sources }: { sources: FunnelSource[] }) {
  return (
    <section aria-labelledby="funnel-sources-heading" className="mt-6">
      <h2 id="funnel-sources-heading" className="text-lg font-semibold">
        By source
      </h2>
      {sources.length === 0 ? (
        <p className={`mt-2 text-sm ${mutedText}`}>Nobody joined in this range.</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-sm" data-testid="funnel-sources">
            <thead>
              <tr>
                <th scope="col" className="px-2 py-1 text-left font-medium">
                  Source
                </th>
                <CountHeads />
              </tr>
            </thead>
            <tbody>
              {sources.map((source) => (
                <tr key={source.source ?? ""} className="border-t border-zinc-200 dark:border-zinc-800" data-testid={`funnel-source-${source.source ?? "direct"}`}>
                  <th scope="row" className="break-all px-2 py-1 text-left font-normal">
                    {source.source ?? <span className={mutedText}>Direct or unknown</span>}
                  </th>
                  <Counts row={source} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
