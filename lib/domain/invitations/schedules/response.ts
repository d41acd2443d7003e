import "server-only";
import { z } from "zod";
import { getDb, type AppDatabase } from "@/db/client";
import { formatScheduleRule, SCHEDULE_RULE_EXAMPLE, SCHEDULE_RULE_FORMAT } from "./rule";
import { nextSlot, WEEKDAYS } from "./slots";
import { lastRunOf, type Schedule } from "./store";

// A paced invitation as /v1 and the CLI's --json show it.

export const scheduleResponseSchema = z
  .strictObject({
    id: z.number().int().meta({ description: "The schedule's id within this server." }),
    waitlist_id: z.string().meta({ format: "uuid" }),
    rule: z.string().meta({ description: `The rule in its one-line form: \`${SCHEDULE_RULE_FORMAT}\`, such as \`${SCHEDULE_RULE_EXAMPLE}\`.` }),
    days: z.array(z.enum(WEEKDAYS)).meta({ description: "The weekdays it runs on." }),
    time_of_day: z.string().meta({ description: "The local time of day it runs at, HH:MM." }),
    time_zone: z.string().meta({ description: "The IANA time zone of its time of day." }),
    batch: z.number().int().meta({ description: "How many it invites per run: the next in line of its filter." }),
    filter: z.string().meta({ description: "The filter, as /v1's filter parameters in one query string (empty: every waiting signup)." }),
    guard: z
      .strictObject({ percent: z.number().int(), days: z.number().int() })
      .nullable()
      .meta({ description: "Pause when fewer than `percent`% of the invitations of the last `days` days were redeemed; null: no guard." }),
    paused: z.boolean(),
    paused_reason: z.string().nullable().meta({ description: "Why its guard paused it; null when an admin did, or when it runs." }),
    next_run_at: z.string().nullable().meta({ format: "date-time", description: "Its next slot; null while paused." }),
    last_run: z
      .strictObject({ slot: z.string().meta({ format: "date-time" }), ran_at: z.string().meta({ format: "date-time" }), invited: z.number().int() })
      .nullable()
      .meta({ description: "Its newest run: the slot, when it ran, how many it invited." }),
    created_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ description: "A paced invitation: on its weekdays at its local time, invite the next `batch` in line of its filter. Each slot runs exactly once." });
export type ScheduleResponse = z.infer<typeof scheduleResponseSchema>;

export async function toScheduleResponse(schedule: Schedule, now = Date.now(), db: AppDatabase = getDb()): Promise<ScheduleResponse> {
  const last = await lastRunOf(schedule.id, db);
  const next = schedule.paused ? undefined : nextSlot(schedule, now);
  return {
    id: schedule.id,
    waitlist_id: schedule.waitlistId,
    rule: formatScheduleRule(schedule),
    days: WEEKDAYS.filter((_, index) => schedule.weekdays & (1 << index)),
    time_of_day: schedule.timeOfDay,
    time_zone: schedule.timeZone,
    batch: schedule.batch,
    filter: schedule.filter,
    guard: schedule.guard,
    paused: schedule.paused,
    paused_reason: schedule.pausedReason,
    next_run_at: next === undefined ? null : new Date(next).toISOString(),
    last_run: last ? { slot: new Date(last.slot).toISOString(), ran_at: new Date(last.ranAt).toISOString(), invited: last.invited } : null,
    created_at: schedule.createdAt.toISOString(),
  };
}
