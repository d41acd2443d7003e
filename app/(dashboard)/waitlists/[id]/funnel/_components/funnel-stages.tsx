import { cardClass, mutedText } from "@/components/styles";
import { formatCount } from "@/components/format";
import type { FunnelStats } from "@/lib/domain/funnel/stats";

/** A rate (0–1) as "42.5%", or "—" without a divisor. */
export function percent(rate: number | null): string {
  if (rate === null) return "—";
  const value = rate * 100;
  return `${Number.isInteger(value) ? value.toFixed(0) : value.toFixed(1)}%`;
}

function hours(value: number | null): string {
  if (value === null) return "—";
  return value < 48 ? `${value} h` : `${(value / 24).toFixed(1)} days`;
}

/** The stages of the whole range, each with its conversion from the one before. */
export function FunnelStages({ stats }: { stats: FunnelStats }) {
  const { totals, rates } = stats;
  const stages = [
    { key: "views", label: "Join-page views", count: totals.views, rate: undefined },
    { key: "joined", label: "Joined", count: totals.joined, rate: rates.view_to_join },
    { key: "verified", label: "Verified", count: totals.verified, rate: rates.join_to_verified },
    { key: "invited", label: "Invited", count: totals.invited, rate: rates.join_to_invited },
    { key: "completed", label: "Completed", count: totals.completed, rate: rates.invited_to_completed },
    { key: "expired", label: "Expired", count: totals.expired, rate: rates.invited_to_expired },
  ];
  return (
    <section aria-labelledby="funnel-stages-heading" className="mt-6">
      <h2 id="funnel-stages-heading" className="text-lg font-semibold">
        Stages
      </h2>
      <ol className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {stages.map((stage) => (
          <li key={stage.key} className={`${cardClass} p-3`}>
            <div className={`text-xs ${mutedText}`}>{stage.label}</div>
            <div className="text-2xl font-semibold tabular-nums" data-testid={`funnel-${stage.key}`}>
              {formatCount(stage.count)}
            </div>
            {stage.rate === undefined ? null : (
              <div className={`text-xs ${mutedText}`} data-testid={`funnel-${stage.key}-rate`}>
                {percent(stage.rate)} {stage.key === "joined" ? "of views" : stage.key === "completed" || stage.key === "expired" ? "of invited" : "of joined"}
              </div>
            )}
          </li>
        ))}
      </ol>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-2">
          <dt className={mutedText}>Referral factor</dt>
          <dd className="tabular-nums" data-testid="funnel-referral-factor">{stats.referral_factor === null ? "—" : stats.referral_factor.toFixed(2)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className={mutedText}>Median join → invite</dt>
          <dd className="tabular-nums">{hours(stats.median_hours.join_to_invite)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className={mutedText}>Median invite → completed</dt>
          <dd className="tabular-nums">{hours(stats.median_hours.invite_to_complete)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className={mutedText}>Completed of joined</dt>
          <dd className="tabular-nums">{percent(rates.join_to_completed)}</dd>
        </div>
      </dl>
    </section>
  );
}
