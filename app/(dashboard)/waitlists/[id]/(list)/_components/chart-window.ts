import { DAY_MS } from "@/lib/core/time";
import type { SignupTableParams } from "@/lib/dashboard/signup-table";
import { dayRange } from "@/lib/dashboard/signup-table-url";

export const DEFAULT_CHART_DAYS = 90;
/** A longer date range shows its last year of days: more bars would be thinner than a pixel. */
export const MAX_CHART_DAYS = 366;

/** The days the chart shows: UTC days from `start`, `days` of them. */
export interface ChartWindow {
  start: Date;
  days: number;
  /** No date range is set: the last DEFAULT_CHART_DAYS days up to today. */
  recent: boolean;
  /** The range is longer than MAX_CHART_DAYS: only its last days are shown. */
  clipped: boolean;
}

function utcDay(text: string): number {
  return Date.parse(`${text}T00:00:00Z`);
}

/**
 * The chart's days: the last 90 up to today without a date range; the range itself when one is
 * set (an open end runs to today, or 90 days back from `to`), at most MAX_CHART_DAYS of it.
 */
export function chartWindow(state: Pick<SignupTableParams, "createdSince" | "createdUntil">, now = new Date()): ChartWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = dayRange(state);
  const from = days.from ? utcDay(days.from) : undefined;
  const end = days.to ? utcDay(days.to) : Math.max(today, from ?? today);
  const start = from ?? end - (DEFAULT_CHART_DAYS - 1) * DAY_MS;
  const length = Math.round((end - start) / DAY_MS) + 1;
  const shown = Math.min(length, MAX_CHART_DAYS);
  return { start: new Date(end - (shown - 1) * DAY_MS), days: shown, recent: from === undefined && days.to === undefined, clipped: length > shown };
}

/** The first instant after the window (for the per-day query's upper bound). */
export function windowEnd(window: ChartWindow): Date {
  return new Date(window.start.getTime() + window.days * DAY_MS);
}

/** Seven days before now (the "last 7 days" figure). */
export function weekAgo(now = new Date()): Date {
  return new Date(now.getTime() - 7 * DAY_MS);
}
