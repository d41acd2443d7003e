import type { Command } from "commander";
import { AppError } from "@/lib/core/errors";
import { CLI_ACTOR } from "@/lib/domain/audit/log";
import { SCHEDULE_RULE_EXAMPLE, SCHEDULE_RULE_FORMAT } from "@/lib/domain/invitations/schedules/rule";
import { toScheduleResponse, type ScheduleResponse } from "@/lib/domain/invitations/schedules/response";
import { previewSchedule } from "@/lib/domain/invitations/schedules/run";
import { addSchedule, changeSchedule, getScheduleOrThrow, listSchedules, removeSchedule } from "@/lib/domain/invitations/schedules/store";
import { getWaitlistOrThrow } from "@/lib/domain/waitlists/queries";
import { emit, type JsonOption } from "../output";

// `waitlists schedules <waitlist>`: the paced invitations of a waitlist. Without an option it lists
// them; --add "<rule>" adds one; --pause, --resume, --remove and --preview take a schedule's id.

interface ScheduleOptions extends JsonOption {
  add?: string;
  pause?: string;
  resume?: string;
  remove?: string;
  preview?: string;
}

function scheduleIdOf(text: string, option: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(text.trim())) throw new AppError("invalid_parameter", `invalid ${option}: must be a schedule's id, as the list shows it (got ${JSON.stringify(text)})`, option);
  return Number(text.trim());
}

function describe(schedule: ScheduleResponse): string {
  const state = schedule.paused ? `paused${schedule.paused_reason ? ` by ${schedule.paused_reason}` : ""}` : `next run ${schedule.next_run_at}`;
  const last = schedule.last_run ? `; last run ${schedule.last_run.slot}: invited ${schedule.last_run.invited}` : "";
  return `${schedule.id}  ${schedule.rule}  (${state}${last})`;
}

export function registerScheduleCommands(waitlists: Command): void {
  waitlists
    .command("schedules")
    .description(`List, add, pause, resume, remove or preview a waitlist's paced invitations. A rule: "${SCHEDULE_RULE_FORMAT}", such as "${SCHEDULE_RULE_EXAMPLE}". Audited (actor cli).`)
    .argument("<waitlist>", "the waitlist's id")
    .option("--add <rule>", `a new schedule: "${SCHEDULE_RULE_FORMAT}"`)
    .option("--pause <id>", "pause a schedule: no run until resumed")
    .option("--resume <id>", "resume a schedule (its next slot runs)")
    .option("--remove <id>", "remove a schedule")
    .option("--preview <id>", "who the schedule's next run would invite, were it now: how many, and the first few")
    .option("--json", "print JSON to stdout")
    .action(async (waitlistId: string, options: ScheduleOptions) => {
      const given = (["add", "pause", "resume", "remove", "preview"] as const).filter((name) => options[name] !== undefined);
      if (given.length > 1) throw new AppError("invalid_parameter", `--${given[0]} and --${given[1]} cannot be combined`, `--${given[1]}`);
      const waitlist = await getWaitlistOrThrow(waitlistId);
      if (options.add !== undefined) {
        const added = await toScheduleResponse(await addSchedule(CLI_ACTOR, waitlist.id, { rule: options.add }));
        return emit(options, added, () => `Added schedule ${describe(added)}`);
      }
      if (options.pause !== undefined || options.resume !== undefined) {
        const paused = options.pause !== undefined;
        const id = scheduleIdOf((options.pause ?? options.resume)!, paused ? "--pause" : "--resume");
        const changed = await toScheduleResponse(await changeSchedule(CLI_ACTOR, waitlist.id, id, { paused }));
        return emit(options, changed, () => `${paused ? "Paused" : "Resumed"} schedule ${describe(changed)}`);
      }
      if (options.remove !== undefined) {
        const removed = await toScheduleResponse(await removeSchedule(CLI_ACTOR, waitlist.id, scheduleIdOf(options.remove, "--remove")));
        return emit(options, { ...removed, removed: true }, () => `Removed schedule ${removed.id} (${removed.rule}).`);
      }
      if (options.preview !== undefined) {
        const preview = await previewSchedule(await getScheduleOrThrow(waitlist.id, scheduleIdOf(options.preview, "--preview")), Date.now());
        return emit(options, preview, () =>
          [`Its next run (${preview.nextRunAt ?? "paused"}) would invite ${preview.count}, were it now.`, ...preview.first.map((signup) => `  ${signup.id}  ${signup.email}`)].join("\n"),
        );
      }
      const all = await Promise.all((await listSchedules(waitlist.id)).map((schedule) => toScheduleResponse(schedule)));
      emit(options, { items: all }, () => (all.length === 0 ? `Waitlist ${waitlist.id} has no schedule.` : all.map(describe).join("\n")));
    });
}
