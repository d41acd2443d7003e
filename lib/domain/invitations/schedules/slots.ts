import { DAY_MS, MINUTE_MS } from "@/lib/core/time";

// When a schedule's slots fall: on its weekdays, at its local time of day in its IANA time zone,
// read with Intl (no time-zone library). A local time that a DST change skips runs at the same
// wall-clock time shifted by the jump (02:30 on a spring-forward night is 03:30); one that occurs
// twice runs at its first occurrence.

/** Monday first, as ISO 8601 numbers them; bit i of a schedule's `weekdays` is WEEKDAYS[i]. */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

export interface SlotRule {
  /** Bit 0 = Monday … bit 6 = Sunday. */
  weekdays: number;
  /** "HH:MM", 24-hour. */
  timeOfDay: string;
  timeZone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone ("Europe/Berlin", "UTC"). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock reading of `instant` in `timeZone`, as if it were UTC (epoch ms). */
function wallClock(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
}

/** The instant at which the zone's clocks read `wall` (a wall-clock time written as UTC ms). */
function instantOfWallClock(wall: number, timeZone: string): number {
  // The zone's offsets half a day before and after: any DST change near `wall` lies between them.
  const offsetAt = (instant: number) => wallClock(instant, timeZone) - instant;
  const before = wall - offsetAt(wall - DAY_MS / 2);
  const after = wall - offsetAt(wall + DAY_MS / 2);
  const readings = [before, after].filter((instant) => wallClock(instant, timeZone) === wall);
  // Read twice (a repeated hour): the first. Never read (a skipped hour): shifted by the jump.
  return readings.length > 0 ? Math.min(...readings) : before;
}

function minutesOf(timeOfDay: string): number {
  const [hours, minutes] = timeOfDay.split(":").map(Number);
  return hours! * 60 + minutes!;
}

/** The ISO weekday index (0 = Monday) of a wall-clock day written as UTC ms. */
function weekdayIndex(wallDay: number): number {
  return (new Date(wallDay).getUTCDay() + 6) % 7;
}

/** The latest slot of `rule` at or before `now` (epoch ms); undefined when it has no weekday. */
export function latestSlot(rule: SlotRule, now: number): number | undefined {
  const today = Math.floor(wallClock(now, rule.timeZone) / DAY_MS) * DAY_MS;
  for (let back = 0; back <= 7; back++) {
    const day = today - back * DAY_MS;
    if ((rule.weekdays & (1 << weekdayIndex(day))) === 0) continue;
    const slot = instantOfWallClock(day + minutesOf(rule.timeOfDay) * MINUTE_MS, rule.timeZone);
    if (slot <= now) return slot;
  }
  return undefined;
}

/** The next slot of `rule` after `now`. */
export function nextSlot(rule: SlotRule, now: number): number | undefined {
  const today = Math.floor(wallClock(now, rule.timeZone) / DAY_MS) * DAY_MS;
  for (let ahead = 0; ahead <= 8; ahead++) {
    const day = today + ahead * DAY_MS;
    if ((rule.weekdays & (1 << weekdayIndex(day))) === 0) continue;
    const slot = instantOfWallClock(day + minutesOf(rule.timeOfDay) * MINUTE_MS, rule.timeZone);
    if (slot > now) return slot;
  }
  return undefined;
}
