import "server-only";
import { leaderboardRows, type LeaderboardRow } from "@/lib/domain/joining/leaderboard";
import { joinSettingsOf } from "@/lib/domain/joining/settings";

// The public leaderboard's rows are read at most once a minute per waitlist and process: a shared
// link opened by thousands costs one query a minute, and a new referral shows within a minute.
// Whether the list shows it at all is read on every request, so turning it off hides it at once.

export const LEADERBOARD_TTL_MS = 60_000;

const cache = new Map<string, { until: number; rows: LeaderboardRow[] }>();

/** The leaderboard as it was at most LEADERBOARD_TTL_MS ago; undefined when the waitlist does not show one. */
export async function cachedLeaderboard(waitlistId: string, now = Date.now()): Promise<LeaderboardRow[] | undefined> {
  if (!(await joinSettingsOf(waitlistId)).leaderboard) return undefined;
  const hit = cache.get(waitlistId);
  if (hit && hit.until > now) return hit.rows;
  const rows = await leaderboardRows(waitlistId);
  cache.set(waitlistId, { until: now + LEADERBOARD_TTL_MS, rows });
  return rows;
}
