import { DAY_MS } from "./time";

// The instants a filter or an import reads: ISO 8601 dates and date-times with an offset.

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// A date-time needs an offset: without one, "2026-10-01T09:00" means a different instant per server.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A calendar date that exists (no February 30th), as its UTC midnight. */
function utcDate(year: string, month: string, day: string): Date | undefined {
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  const valid = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return valid ? date : undefined;
}

/**
 * An ISO 8601 date (`2026-10-01`, midnight UTC) or date-time with an offset
 * (`2026-10-01T09:30:00Z`, `2026-10-01T11:30:00+02:00`); undefined for anything else.
 */
export function parseInstant(text: string): Date | undefined {
  const date = DATE_ONLY.exec(text);
  if (date) return utcDate(date[1]!, date[2]!, date[3]!);
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) return undefined;
  const [, year, month, day, hour, minute, second = "0"] = dateTime;
  if (!utcDate(year!, month!, day!) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
}

/** An instant as a query value: the date alone at UTC midnight, else the full ISO 8601 UTC form. */
export function instantParamValue(instant: Date): string {
  const iso = instant.toISOString();
  return instant.getTime() % DAY_MS === 0 ? iso.slice(0, 10) : iso;
}
