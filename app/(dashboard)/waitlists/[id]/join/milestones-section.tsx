import { inputClass, mutedText, primaryButtonClass } from "@/components/styles";
import { describeMilestone, formatMilestone, MAX_MILESTONES, MILESTONE_FORMAT, type Milestone } from "@/lib/domain/milestones/milestone";

/**
 * A waitlist's milestones: what they are, and a form that replaces them all (one per line, as the
 * CLI writes them). Plain HTML: it works without JavaScript.
 */
export function MilestonesSection({ waitlistId, milestones }: { waitlistId: string; milestones: Milestone[] }) {
  return (
    <section id="milestones" aria-labelledby="milestones-heading" className="mt-8 max-w-2xl scroll-mt-4">
      <h2 id="milestones-heading" className="text-lg font-semibold">
        Milestones
      </h2>
      <p className={`text-sm ${mutedText}`}>
        Steps of counted referrals. Reaching one shows on the person&apos;s page, emails them (the message, where <code>{"{{email}}"}</code>, <code>{"{{waitlist.name}}"}</code> and{" "}
        <code>{"{{input.<label>}}"}</code> work as in the invitation) and sends <code>signup.milestone_reached</code> to webhooks, so your product can grant the reward. A milestone added is reached at
        once by everyone already past it. The CLI does the same: <code>waitlists milestones {waitlistId} --set …</code>.
      </p>
      {milestones.length === 0 ? (
        <p className={`mt-2 text-sm ${mutedText}`} data-testid="milestones-now">
          No milestones yet.
        </p>
      ) : (
        <ul className="mt-2 grid gap-1 text-sm" data-testid="milestones-now">
          {milestones.map((milestone) => (
            <li key={milestone.referrals}>
              <strong>{describeMilestone(milestone)}</strong>
              {milestone.message ? <span className={mutedText}> — {milestone.message}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <form method="post" action={`/waitlists/${waitlistId}/join/milestones`} className="mt-3 grid gap-2">
        <label className="grid gap-1 text-sm">
          Milestones, one per line (at most {MAX_MILESTONES})
          <textarea
            name="milestones"
            rows={4}
            defaultValue={milestones.map(formatMilestone).join("\n")}
            placeholder={"3:Early bird:100\n10:Early access:0:You're in the first wave, {{email}}"}
            className={`${inputClass} font-mono`}
            aria-describedby="milestones-hint"
          />
        </label>
        <p id="milestones-hint" className={`text-sm ${mutedText}`}>
          Each line: {MILESTONE_FORMAT.replace(/, e\.g\..*$/, "")}. Places move a waiting person up the line when they reach it (0: none).
        </p>
        <div>
          <button type="submit" className={primaryButtonClass}>
            Set milestones
          </button>
        </div>
      </form>
    </section>
  );
}
