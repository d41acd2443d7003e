import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DoneNotice } from "@/components/done-notice";
import { inputClass, linkClass, mutedText, primaryButtonClass } from "@/components/styles";
import { requireAdminSession } from "@/lib/dashboard/auth";
import { SCHEDULE_RULE_EXAMPLE, SCHEDULE_RULE_FORMAT } from "@/lib/domain/invitations/schedules/rule";
import { toScheduleResponse } from "@/lib/domain/invitations/schedules/response";
import { previewSchedule } from "@/lib/domain/invitations/schedules/run";
import { listSchedules } from "@/lib/domain/invitations/schedules/store";
import { Breadcrumb } from "../breadcrumb";
import { findWaitlist } from "../find-waitlist";
import { ScheduleRow } from "./schedule-row";

export const metadata: Metadata = { title: "Paced invitations" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const DONE = { added: "Schedule added.", paused: "Schedule paused.", resumed: "Schedule resumed.", removed: "Schedule removed." };

// A waitlist's paced invitations: each schedule with its next and last run and who its next run would take; add, pause, resume, remove (admins only).
export default async function SchedulesPage({ params, searchParams }: Props) {
  await requireAdminSession();
  const waitlist = await findWaitlist((await params).id);
  if (!waitlist) notFound();
  const query = await searchParams;
  const schedules = await Promise.all((await listSchedules(waitlist.id)).map(async (schedule) => ({ schedule: await toScheduleResponse(schedule), preview: await previewSchedule(schedule) })));
  return (
    <>
      <Breadcrumb waitlist={waitlist} via={[[`/waitlists/${waitlist.id}/email`, "Invitation email"]]} />
      <h1 className="mt-1 break-words text-2xl font-semibold">Paced invitations of {waitlist.name}</h1>
      <p className={`mt-1 max-w-2xl text-sm ${mutedText}`}>
        Each schedule invites the next people in line of its filter on its weekdays at its local time, as &ldquo;Invite the next N&rdquo; does; each slot runs once, and after downtime only the latest missed one. The CLI does the same: <code>waitlists schedules</code>. See{" "}
        <Link href="/docs/connect-your-product#paced-invitations" className={`${linkClass} underline`}>
          Paced invitations
        </Link>
        .
      </p>
      <DoneNotice done={query.done} messages={DONE} />
      {schedules.length === 0 ? (
        <p className={`mt-6 text-sm ${mutedText}`}>No schedule yet.</p>
      ) : (
        <ul className="mt-6 grid max-w-3xl gap-3" data-testid="schedules">
          {schedules.map(({ schedule, preview }) => (
            <ScheduleRow key={schedule.id} waitlistId={waitlist.id} schedule={schedule} preview={preview} />
          ))}
        </ul>
      )}
      <form method="post" action={`/waitlists/${waitlist.id}/schedules/save`} className="mt-6 grid max-w-3xl gap-2">
        <input type="hidden" name="action" value="add" />
        <label htmlFor="schedule-rule" className="text-sm font-medium">
          New schedule
        </label>
        <p id="schedule-rule-hint" className={`text-xs ${mutedText}`}>
          <code>{SCHEDULE_RULE_FORMAT}</code>, such as <code>{SCHEDULE_RULE_EXAMPLE}</code>. The filter is the signups list&apos;s own (its URL&apos;s parameters: <code>verified=true&amp;input.Role=Engineer</code>).
        </p>
        <input id="schedule-rule" name="rule" required maxLength={2000} placeholder={SCHEDULE_RULE_EXAMPLE} aria-describedby="schedule-rule-hint" autoComplete="off" className={`${inputClass} w-full font-mono`} />
        <div>
          <button type="submit" className={primaryButtonClass}>
            Add schedule
          </button>
        </div>
      </form>
    </>
  );
}
