import { inputClass, mutedText, primaryButtonClass, buttonClass } from "@/components/styles";
import { formatCount } from "@/components/format";
import type { PlaceMove } from "@/lib/domain/ranking/apply";
import { describeRankingRule, formatRankingRule, type RankingRule } from "@/lib/domain/ranking/rule";

/** The rule's kind, number and cap as the form's fields. */
function fieldsOf(rule: RankingRule) {
  return rule.kind === "first-come" ? { kind: "first-come", step: "", cap: "" } : { kind: rule.kind, step: String(rule.step), cap: rule.cap === null ? "" : String(rule.cap) };
}

/**
 * The ranking rule of a waitlist: what it is, a form that previews another (a GET back to this page:
 * where the top referrers and the first in line would stand) and applies it (a POST).
 */
export function RankingSection({ waitlistId, rule, preview }: { waitlistId: string; rule: RankingRule; preview?: { rule: RankingRule; moves: PlaceMove[] } }) {
  const shown = fieldsOf(preview?.rule ?? rule);
  return (
    <section id="ranking" aria-labelledby="ranking-heading" className="mt-8 max-w-2xl scroll-mt-4">
      <h2 id="ranking-heading" className="text-lg font-semibold">
        Ranking
      </h2>
      <p className={`text-sm ${mutedText}`}>
        Now: <strong data-testid="ranking-now">{describeRankingRule(rule)}</strong>. A referral counts once the friend joined through the link (and confirmed the address, where the list verifies
        addresses), unless it is the referrer&apos;s own address again or past the daily limit. The CLI does the same: <code>waitlists update --ranking {formatRankingRule(preview?.rule ?? rule)}</code>.
      </p>
      <form method="get" action={`/waitlists/${waitlistId}/join#ranking`} className="mt-3 grid gap-3">
        <fieldset className="grid gap-2 text-sm">
          <legend className="sr-only">Rule</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="ranking" value="first-come" defaultChecked={shown.kind === "first-come"} />
            First come, first served
          </label>
          <label className="flex flex-wrap items-center gap-2">
            <input type="radio" name="ranking" value="referrals" defaultChecked={shown.kind === "referrals"} />
            Move up a number of places for each counted referral
          </label>
          <label className="flex flex-wrap items-center gap-2">
            <input type="radio" name="ranking" value="points" defaultChecked={shown.kind === "points"} />
            Points: each counted referral is worth hours of waiting
          </label>
        </fieldset>
        <div className="flex flex-wrap gap-4 text-sm">
          <label className="grid gap-1">
            Places (or hours) per referral
            <input name="ranking_step" type="number" min={1} max={shown.kind === "referrals" ? 10_000 : 1_000_000} defaultValue={shown.step || "10"} className={`${inputClass} w-32`} />
          </label>
          <label className="grid gap-1">
            At most this many referrals move a person (optional)
            <input name="ranking_cap" type="number" min={1} max={1_000_000} defaultValue={shown.cap} className={`${inputClass} w-32`} />
          </label>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass}>
            Preview
          </button>
          <button type="submit" formMethod="post" formAction={`/waitlists/${waitlistId}/join/ranking`} className={primaryButtonClass}>
            Apply
          </button>
        </div>
      </form>
      {preview ? (
        <div className="mt-4" data-testid="ranking-preview">
          <p className="text-sm">
            Under <strong>{describeRankingRule(preview.rule)}</strong>:
          </p>
          {preview.moves.length === 0 ? (
            <p className={`text-sm ${mutedText}`}>No one is waiting.</p>
          ) : (
            <ul className="mt-1 grid gap-1 text-sm">
              {preview.moves.map((move) => (
                <li key={move.signupId}>
                  {move.email}: {move.before === move.after ? `stays at #${formatCount(move.before)}` : `moves from #${formatCount(move.before)} to #${formatCount(move.after)}`}
                </li>
              ))}
            </ul>
          )}
          <p className={`mt-1 text-sm ${mutedText}`}>Nothing has changed yet: Apply makes it so.</p>
        </div>
      ) : null}
    </section>
  );
}
