import { dashboardPath, dashboardViews, type DashboardView } from "./dashboard-views";
import { download, median } from "./measure";
import { row, type Row } from "./report";
import type { Bench } from "./scenarios";

/**
 * The dashboard page under each filter alone and all together, on the big waitlist: the median
 * time to its last byte with nothing remembered. A signup is written to the list before every
 * request (a live waitlist): that moves the database's version (SQLite's data_version, PostgreSQL's WAL
 * position), so the page's remembered counts and chart (lib/store/memoize.ts) are stale and computed
 * again, and on SQLite it also empties the server
 * connections' page cache (SQLite drops it when another connection has committed), though not the
 * operating system's.
 */
export function segments(bench: Bench): Promise<Row[]> {
  return measureViews(bench, dashboardViews(bench));
}

/** Each view's median time to the last byte, as `segments` measures it. */
export async function measureViews(bench: Bench, views: DashboardView[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const view of views) {
    const path = dashboardPath(bench.bigWaitlistId, view.filter);
    // Warm-up, and the check that the page shows what the query layer selects: its newest signup.
    await bench.writeSignup();
    const { email, total } = await bench.expect(view.filter);
    const page = await download(bench.app.origin + path, bench.cookieHeaders, { keepText: true });
    if (page.status !== 200) throw new Error(`${path}: status ${page.status}`);
    // A build whose page does not apply a filter yet is timed all the same, and marked, without a target.
    const filtered = page.text!.includes(email);
    const scenario = `dashboard view (${bench.scaleLabel}): ${view.name}${filtered ? "" : " — NOT FILTERED by this build's page"}`;
    const lastByteMs: number[] = [];
    for (let index = 0; index < bench.pageRequests; index++) {
      await bench.writeSignup();
      const result = await download(bench.app.origin + path, bench.cookieHeaders);
      if (result.status !== 200) throw new Error(`${path}: status ${result.status}`);
      lastByteMs.push(result.lastByteMs);
    }
    bench.log(`${scenario}: ${total} signups, median ${median(lastByteMs).toFixed(0)} ms, max ${Math.max(...lastByteMs).toFixed(0)} ms (${path})`);
    rows.push(row(scenario, "median last byte, counts not cached", "ms", median(lastByteMs), null, filtered ? { appBelow: bench.pageTargetMs } : undefined));
  }
  return rows;
}
