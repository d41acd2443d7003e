import { sql } from "drizzle-orm";
import { getDb, type AppDatabase } from "@/db/client";
import { DAY_MS, HOUR_MS } from "@/lib/core/time";
import { preparedSql } from "@/lib/store/statements";

// A waitlist's funnel: join-page views, joins, verified, invited, completed and expired, for the
// signups that joined in a range of UTC days (a cohort: a stage counts for the day its signup
// joined), per day, per week of joining and per source, with conversion rates, the median time
// from joining to the first invitation and from it to completing, and the referral factor. Read
// from the tables counted on write (migration 0023): a few thousand rows on a list of ten million,
// never its signups, so no cache stands in front of it.

export const FUNNEL_STAGES = ["joined", "referred", "verified", "invited", "completed", "expired"] as const;
type Stage = (typeof FUNNEL_STAGES)[number];

/** The stages' counts, and the join page's views where they are known (not per source: a view has none). */
export type StageCounts = Record<Stage, number>;

/** UTC days by number (ms since the epoch ÷ DAY_MS), both inclusive; absent: no bound. */
export interface FunnelRange {
  fromDay?: number;
  toDay?: number;
}

export interface FunnelRates {
  /** joins ÷ views */
  view_to_join: number | null;
  join_to_verified: number | null;
  join_to_invited: number | null;
  invited_to_completed: number | null;
  join_to_completed: number | null;
  /** expired ÷ invited */
  invited_to_expired: number | null;
}

export interface FunnelDay extends StageCounts {
  day: string;
  views: number;
}
export interface FunnelCohort extends StageCounts {
  /** The Monday (UTC) that starts the week of joining. */
  week: string;
  rates: FunnelRates;
}
export interface FunnelSource extends StageCounts {
  /** utm_source, else the referring site; null: neither (a direct visit, an import). */
  source: string | null;
  rates: FunnelRates;
}

export interface FunnelStats {
  from: string | null;
  to: string | null;
  totals: StageCounts & { views: number };
  rates: FunnelRates;
  /** Referred joins ÷ joins. */
  referral_factor: number | null;
  /** Medians in hours, to the hour under two days and to the day beyond (the buckets of funnel_durations); null without any. */
  median_hours: { join_to_invite: number | null; invite_to_complete: number | null };
  days: FunnelDay[];
  cohorts: FunnelCohort[];
  sources: FunnelSource[];
}

const FAR_DAY = 1e8; // past any day a Date can name

const placeholder = sql.placeholder;
const inRange = () => sql`waitlist_id = ${placeholder("waitlistId")} AND day BETWEEN ${placeholder("fromDay")} AND ${placeholder("toDay")}`;

function statements(db: AppDatabase) {
  // In SQL: reads of the counting tables, each one range of its primary key: the days' rows as they are
  // (a few per day), the sources' summed by SQLite in key order (a third of the time of handing
  // every row to JavaScript). Rows come as arrays (`values`).
  return {
    byDay: preparedSql(db, "funnel.stats.byDay", () => sql`SELECT day, stage, count FROM funnel_counts WHERE ${inRange()}`),
    bySource: preparedSql(db, "funnel.stats.bySource", () => sql`SELECT source, stage, sum(count) FROM funnel_source_counts WHERE ${inRange()} GROUP BY source, stage`),
    views: preparedSql(db, "funnel.stats.views", () => sql`SELECT day, count FROM join_page_views WHERE ${inRange()}`),
    durations: preparedSql(db, "funnel.stats.durations", () => sql`SELECT kind, bucket, sum(count) FROM funnel_durations WHERE ${inRange()} GROUP BY kind, bucket ORDER BY kind, bucket`),
  };
}

const emptyCounts = (): StageCounts => ({ joined: 0, referred: 0, verified: 0, invited: 0, completed: 0, expired: 0 });
const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** The Monday of a day's week (day 0, 1970-01-01, was a Thursday). */
export const weekOf = (day: number) => day - ((((day + 3) % 7) + 7) % 7);

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;
}

export function ratesOf(counts: StageCounts, views?: number): FunnelRates {
  return {
    view_to_join: views === undefined ? null : ratio(counts.joined, views),
    join_to_verified: ratio(counts.verified, counts.joined),
    join_to_invited: ratio(counts.invited, counts.joined),
    invited_to_completed: ratio(counts.completed, counts.invited),
    join_to_completed: ratio(counts.completed, counts.joined),
    invited_to_expired: ratio(counts.expired, counts.invited),
  };
}

/** A bucket of funnel_durations (its lower bound in hours) as its middle, in hours. */
export function bucketMiddle(bucket: number): number {
  return bucket + (bucket < 48 ? 0.5 : 12);
}

/** The bucket of a duration in ms, as the migration's views write it. */
export function bucketOf(ms: number): number {
  const duration = Math.max(ms, 0);
  return duration < 2 * DAY_MS ? Math.floor(duration / HOUR_MS) : Math.floor(duration / DAY_MS) * 24;
}

/** The lower median (the ⌈n/2⌉-th smallest) of bucketed durations, as its bucket's middle. */
function medianOf(buckets: [number, number][]): number | null {
  const total = buckets.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.ceil(total / 2);
  let seen = 0;
  for (const [bucket, count] of buckets) {
    seen += count;
    if (seen >= rank) return bucketMiddle(bucket);
  }
  return null;
}

function add(into: StageCounts, stage: string, count: number) {
  if (stage in into) into[stage as Stage] += count;
}

/** The funnel of a waitlist over the signups that joined in `range` (see the top of this file). */
export async function funnelStats(waitlistId: string, range: FunnelRange = {}, db: AppDatabase = getDb()): Promise<FunnelStats> {
  const bounds = { waitlistId, fromDay: range.fromDay ?? -FAR_DAY, toDay: range.toDay ?? FAR_DAY };
  const prepared = statements(db);
  const totals = emptyCounts();
  const days = new Map<number, StageCounts & { views: number }>();
  const sources = new Map<string, StageCounts>();
  const dayOf = (day: number) => days.get(day) ?? days.set(day, { ...emptyCounts(), views: 0 }).get(day)!;
  for (const [day, stage, count] of await prepared.byDay.values(bounds) as [number, string, number][]) {
    add(totals, stage, count);
    add(dayOf(day), stage, count);
  }
  for (const [source, stage, count] of await prepared.bySource.values(bounds) as [string, string, number][]) add(sources.get(source) ?? sources.set(source, emptyCounts()).get(source)!, stage, count);
  let views = 0;
  for (const [day, count] of await prepared.views.values(bounds) as [number, number][]) {
    views += count;
    dayOf(day).views += count;
  }
  const weeks = new Map<number, StageCounts>();
  for (const [day, counts] of days) {
    const week = weeks.get(weekOf(day)) ?? weeks.set(weekOf(day), emptyCounts()).get(weekOf(day))!;
    for (const stage of FUNNEL_STAGES) week[stage] += counts[stage];
  }
  const durations = await prepared.durations.values(bounds) as [string, number, number][];
  const ofKind = (kind: string) => durations.filter(([each]) => each === kind).map(([, bucket, count]): [number, number] => [bucket, count]);
  const sorted = <T>(map: Map<number, T>) => [...map].sort(([a], [b]) => a - b);
  return {
    from: range.fromDay === undefined ? null : dayText(range.fromDay),
    to: range.toDay === undefined ? null : dayText(range.toDay),
    totals: { ...totals, views },
    rates: ratesOf(totals, views),
    referral_factor: ratio(totals.referred, totals.joined),
    median_hours: { join_to_invite: medianOf(ofKind("invite")), invite_to_complete: medianOf(ofKind("redeem")) },
    days: sorted(days).map(([day, counts]) => ({ day: dayText(day), ...counts })),
    cohorts: sorted(weeks)
      .filter(([, counts]) => counts.joined > 0)
      .map(([week, counts]) => ({ week: dayText(week), ...counts, rates: ratesOf(counts) })),
    sources: [...sources]
      .sort(([a, countsA], [b, countsB]) => countsB.joined - countsA.joined || (a < b ? -1 : 1))
      .map(([source, counts]) => ({ source: source === "" ? null : source, ...counts, rates: ratesOf(counts) })),
  };
}
