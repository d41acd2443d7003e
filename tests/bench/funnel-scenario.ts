import { openDatabase } from "@/db/client";
import { DAY_MS } from "@/lib/core/time";
import { funnelStats } from "@/lib/domain/funnel/stats";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { percentile } from "./measure";
import { row, type Row } from "./report";

const TARGET_MS = 150;
const SAMPLES = 30;

/**
 * The funnel (GET /v1/waitlist/{id}/stats, the dashboard's funnel page, `waitlists stats`: one domain
 * function) on the big list, drained the usual way: the oldest tenth invited and of them half completed,
 * over sources the dataset gives (utm_source, referrers, none). Timed over the whole list and over its
 * last 30 days, from the counting tables, nothing cached; then the list is put back.
 */
export async function funnelScenario(databasePath: string, waitlistId: string, scaleLabel: string, log: (line: string) => void): Promise<Row[]> {
  const scenario = `funnel stats (${scaleLabel} list)`;
  const db = openDatabase(databasePath);
  const sqlite = db.$client;
  try {
    const total = (await funnelStats(waitlistId, {}, db)).totals.joined;
    const started = performance.now();
    await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId }, limit: Math.floor(total / 10) } }, db);
    await applyStatusAction("cli", { action: "complete", selection: { scope: { waitlistId }, limit: Math.floor(total / 20) } }, db);
    log(`  statuses set in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const rows = (sqlite.prepare("SELECT (SELECT count(*) FROM funnel_counts WHERE waitlist_id = @w) + (SELECT count(*) FROM funnel_source_counts WHERE waitlist_id = @w)").pluck().get({ w: waitlistId }) as number) ?? 0;
    const lastDay = Math.floor(Date.now() / DAY_MS);
    const time = async (range: { fromDay?: number; toDay?: number }) => {
      const times: number[] = [];
      for (let sample = 0; sample < SAMPLES; sample++) {
        const at = performance.now();
        await funnelStats(waitlistId, range, db);
        times.push(performance.now() - at);
      }
      return times;
    };
    const whole = await time({});
    const month = await time({ fromDay: lastDay - 29, toDay: lastDay });
    const check = (await funnelStats(waitlistId, {}, db)).totals;
    log(`  ${rows.toLocaleString("en")} counting rows; joined ${check.joined.toLocaleString("en")}, invited ${check.invited.toLocaleString("en")}, completed ${check.completed.toLocaleString("en")}`);
    return [
      row(scenario, "whole list p50", "ms", percentile(whole, 0.5), null),
      row(scenario, "whole list p99", "ms", percentile(whole, 0.99), null, { appBelow: TARGET_MS }),
      row(scenario, "last 30 days p99", "ms", percentile(month, 0.99), null, { appBelow: TARGET_MS }),
    ];
  } finally {
    // Back to every signup waiting and never invited (the triggers take the funnel's counts back with them).
    sqlite.exec("UPDATE signups SET status = 'waiting', status_changed_at = NULL, invited_at = NULL, completed_at = NULL WHERE invited_at IS NOT NULL OR status <> 'waiting'; DELETE FROM events;");
    sqlite.close();
  }
}
