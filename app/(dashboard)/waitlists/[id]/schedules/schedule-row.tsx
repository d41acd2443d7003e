import { buttonClass, cardClass, dangerLinkClass, mutedText } from "@/components/styles";
import type { ScheduleResponse } from "@/lib/domain/invitations/schedules/response";
import type { SchedulePreview } from "@/lib/domain/invitations/schedules/run";

/** One schedule: its rule, state, last run and who its next run would take, with pause or resume and remove. */
export function ScheduleRow({ waitlistId, schedule, preview }: { waitlistId: string; schedule: ScheduleResponse; preview: SchedulePreview }) {
  const action = `/waitlists/${waitlistId}/schedules/save`;
  const state = schedule.paused ? `Paused${schedule.paused_reason ? ` by ${schedule.paused_reason}` : ""}` : `Next run ${schedule.next_run_at}`;
  return (
    <li className={`${cardClass} grid gap-2 p-3 text-sm`} data-testid="schedule">
      <code className="break-all font-mono" data-testid="schedule-rule">
        {schedule.rule}
      </code>
      <p data-testid="schedule-state">
        {state}
        {schedule.last_run ? `; last run ${schedule.last_run.slot}: invited ${schedule.last_run.invited}` : "; not run yet"}.
      </p>
      <p className={mutedText} data-testid="schedule-preview">
        Were it now, it would invite {preview.count.toLocaleString("en-US")}
        {preview.first.length > 0 ? `: ${preview.first.map((signup) => signup.email).join(", ")}${preview.count > preview.first.length ? ", …" : ""}` : ""}.
      </p>
      <div className="flex flex-wrap gap-2">
        <form method="post" action={action}>
          <input type="hidden" name="id" value={schedule.id} />
          <button type="submit" name="action" value={schedule.paused ? "resume" : "pause"} className={buttonClass}>
            {schedule.paused ? "Resume" : "Pause"}
          </button>
        </form>
        <form method="post" action={action}>
          <input type="hidden" name="id" value={schedule.id} />
          <button type="submit" name="action" value="remove" className={dangerLinkClass}>
            Remove
          </button>
        </form>
      </div>
    </li>
  );
}
