import { mutedText } from "@/components/styles";
import type { PersonMilestone } from "@/lib/domain/milestones/store";

const more = (n: number) => `${n.toLocaleString("en-US")} more counted referral${n === 1 ? "" : "s"}`;

/** The waitlist's milestones as this person stands: reached ones with their date, the others with how far they are. */
export function MilestonesSection({ milestones, counted }: { milestones: PersonMilestone[]; counted: number }) {
  if (milestones.length === 0) return null;
  return (
    <section aria-labelledby="milestones-heading" className="mt-6">
      <h2 id="milestones-heading" className="text-base font-semibold">
        Milestones
      </h2>
      <ul data-testid="person-milestones" className="mt-2 grid gap-2 text-sm">
        {milestones.map((milestone) => (
          <li key={milestone.referrals} data-reached={milestone.reachedAt ? "true" : "false"}>
            <span aria-hidden="true">{milestone.reachedAt ? "✓ " : "○ "}</span>
            <strong>{milestone.label}</strong>
            {milestone.places > 0 ? ` (moves you up ${milestone.places.toLocaleString("en-US")} place${milestone.places === 1 ? "" : "s"})` : ""}:{" "}
            {milestone.reachedAt ? `reached on ${milestone.reachedAt.toISOString().slice(0, 10)}` : `${milestone.referrals} counted referral${milestone.referrals === 1 ? "" : "s"}; ${more(Math.max(1, milestone.referrals - counted))} to go`}
            {milestone.reachedAt && milestone.message ? <span className={`block ${mutedText}`}>{milestone.message}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
