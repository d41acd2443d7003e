// The funnel recounted from signup rows, by its documented meaning (lib/domain/funnel/stats.ts), in
// plain JS: the reference the counted tables are held to by the unit and API tests.

const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface RecountRow {
  createdAt: number;
  verified: boolean;
  referral: boolean;
  source: string | null;
  invitedAt: number | null;
  completedAt: number | null;
  expiredAt: number | null;
}

const bucketMiddle = (ms: number) => {
  const duration = Math.max(ms, 0);
  return duration < 2 * DAY ? Math.floor(duration / HOUR) + 0.5 : Math.floor(duration / DAY) * 24 + 12;
};

/** The lower median's bucket middle, in hours. */
function median(durations: number[]): number | null {
  if (durations.length === 0) return null;
  const sorted = [...durations].sort((a, b) => a - b);
  return bucketMiddle(sorted[Math.ceil(sorted.length / 2) - 1]!);
}

function stages(rows: RecountRow[]) {
  return {
    joined: rows.length,
    referred: rows.filter((row) => row.referral).length,
    verified: rows.filter((row) => row.verified).length,
    invited: rows.filter((row) => row.invitedAt !== null).length,
    completed: rows.filter((row) => row.completedAt !== null).length,
    expired: rows.filter((row) => row.expiredAt !== null).length,
  };
}

const dayText = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
const group = <K>(rows: RecountRow[], key: (row: RecountRow) => K) => {
  const groups = new Map<K, RecountRow[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return groups;
};

/** The funnel of the rows joined in [fromDay, toDay] (day numbers), without views. */
export function recountFunnel(all: RecountRow[], fromDay = -Infinity, toDay = Infinity) {
  const rows = all.filter((row) => Math.floor(row.createdAt / DAY) >= fromDay && Math.floor(row.createdAt / DAY) <= toDay);
  const invited = rows.filter((row) => row.invitedAt !== null);
  return {
    totals: stages(rows),
    referral_factor: rows.length === 0 ? null : Math.round((stages(rows).referred / rows.length) * 10_000) / 10_000,
    median_hours: {
      join_to_invite: median(invited.map((row) => row.invitedAt! - row.createdAt)),
      invite_to_complete: median(invited.filter((row) => row.completedAt !== null).map((row) => row.completedAt! - row.invitedAt!)),
    },
    days: [...group(rows, (row) => Math.floor(row.createdAt / DAY))].sort(([a], [b]) => a - b).map(([day, each]) => ({ day: dayText(day), ...stages(each) })),
    cohorts: [...group(rows, (row) => {
      const day = Math.floor(row.createdAt / DAY);
      return day - ((((day + 3) % 7) + 7) % 7);
    })]
      .sort(([a], [b]) => a - b)
      .map(([week, each]) => ({ week: dayText(week), ...stages(each) })),
    sources: Object.fromEntries([...group(rows, (row) => row.source)].map(([source, each]) => [source ?? "(none)", stages(each)])),
  };
}
