import { z } from "zod";
import { isTimeZone, WEEKDAYS, type SlotRule } from "./slots";

// A paced invitation's rule in one line of text, the same for the CLI, /v1 and the dashboard:
//
//   <days> at <HH:MM> [<time zone>] invite <N> [where <filter>] [guard <P>% over <D>d]
//
//   weekdays at 09:00 Europe/Berlin invite 200 where verified=true&input.Role=Engineer guard 20% over 7d
//
// <days>: daily, weekdays, weekends, a list (mon,wed,fri) or a range (mon-fri). The time zone is an
// IANA name (UTC unless given). <filter>: /v1's filter parameters as one query string (a saved
// segment: the dashboard's URL of a filtered list holds the same names). guard: pause the schedule
// when fewer than P% of the invitations of the last D days were redeemed.

export const SCHEDULE_RULE_FORMAT = "<days> at <HH:MM> [<time zone>] invite <N> [where <filter>] [guard <P>% over <D>d]";
export const SCHEDULE_RULE_EXAMPLE = "weekdays at 09:00 Europe/Berlin invite 200 where verified=true guard 20% over 7d";
export const MAX_SCHEDULE_BATCH = 10_000;

export interface ScheduleRule extends SlotRule {
  batch: number;
  /** /v1's filter parameters as a query string; "" for every waiting signup. */
  filter: string;
  guard: { percent: number; days: number } | null;
}

const ALL_DAYS = 0b1111111;
const NAMED_DAYS: Record<string, number> = { daily: ALL_DAYS, weekdays: 0b0011111, weekends: 0b1100000 };

function dayBit(name: string): number | undefined {
  const index = (WEEKDAYS as readonly string[]).indexOf(name);
  return index < 0 ? undefined : 1 << index;
}

/** The weekdays of "mon,wed,fri", "mon-fri", "weekdays"; undefined when one is not a day. */
function parseDays(text: string): number | undefined {
  const named = NAMED_DAYS[text];
  if (named !== undefined) return named;
  let bits = 0;
  for (const part of text.split(",")) {
    const [from, to] = part.split("-");
    const first = dayBit(from!);
    const last = to === undefined ? first : dayBit(to);
    if (first === undefined || last === undefined) return undefined;
    for (let bit = first; ; bit = bit === 1 << 6 ? 1 : bit << 1) {
      bits |= bit;
      if (bit === last) break;
    }
  }
  return bits;
}

/** "weekdays", "daily", "mon,wed,fri". */
export function formatDays(weekdays: number): string {
  const named = Object.entries(NAMED_DAYS).find(([, bits]) => bits === weekdays);
  return named ? named[0] : WEEKDAYS.filter((_, index) => weekdays & (1 << index)).join(",");
}

const RULE = /^(?<days>\S+)\s+at\s+(?<time>\d{1,2}:\d{2})(?:\s+(?<zone>(?!invite\b)[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*))?\s+invite\s+(?<batch>\d{1,6})(?:\s+where\s+(?<filter>\S+))?(?:\s+guard\s+(?<percent>\d{1,3})%\s+over\s+(?<guardDays>\d{1,3})d)?$/i;

/** Parses a rule, or says what is wrong with it (one line). */
export function parseScheduleRule(text: string): { ok: true; rule: ScheduleRule } | { ok: false; message: string } {
  const match = RULE.exec(text.trim());
  if (!match?.groups) return { ok: false, message: `must read "${SCHEDULE_RULE_FORMAT}", such as "${SCHEDULE_RULE_EXAMPLE}"` };
  const { days, time, zone, batch, filter, percent, guardDays } = match.groups;
  const weekdays = parseDays(days!.toLowerCase());
  if (!weekdays) return { ok: false, message: `has unknown days "${days}": daily, weekdays, weekends, a list (mon,wed,fri) or a range (mon-fri)` };
  const [hours, minutes] = time!.split(":").map(Number);
  if (hours! > 23 || minutes! > 59) return { ok: false, message: `has no such time of day "${time}": 00:00 to 23:59` };
  const timeZone = zone ?? "UTC";
  if (!isTimeZone(timeZone)) return { ok: false, message: `has an unknown time zone "${timeZone}": an IANA name such as Europe/Berlin or UTC` };
  const size = Number(batch);
  if (size < 1 || size > MAX_SCHEDULE_BATCH) return { ok: false, message: `invites from 1 to ${MAX_SCHEDULE_BATCH.toLocaleString("en-US")} per run (got ${size})` };
  const guard = percent === undefined ? null : { percent: Number(percent), days: Number(guardDays) };
  if (guard && (guard.percent < 1 || guard.percent > 100 || guard.days < 1)) return { ok: false, message: "has a guard of 1% to 100% over at least 1 day (guard 20% over 7d)" };
  const timeOfDay = `${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
  return { ok: true, rule: { weekdays, timeOfDay, timeZone, batch: size, filter: filter ?? "", guard } };
}

/** The rule's canonical text (parseScheduleRule reads it back). */
export function formatScheduleRule(rule: ScheduleRule): string {
  const where = rule.filter === "" ? "" : ` where ${rule.filter}`;
  const guard = rule.guard ? ` guard ${rule.guard.percent}% over ${rule.guard.days}d` : "";
  return `${formatDays(rule.weekdays)} at ${rule.timeOfDay} ${rule.timeZone} invite ${rule.batch}${where}${guard}`;
}

/** A rule's text as zod reads it: refused with parseScheduleRule's message. */
export const scheduleRuleSchema = z.string().transform((text, context) => {
  const parsed = parseScheduleRule(text);
  if (parsed.ok) return parsed.rule;
  context.addIssue({ code: "custom", message: parsed.message });
  return z.NEVER;
});
