import { openDatabase } from "@/db/client";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { dateRange, ROLE, type DashboardView } from "./dashboard-views";
import type { Row } from "./report";
import type { Bench } from "./scenarios";
import { measureViews } from "./segments";

/**
 * The dashboard under `status` filters, on a list drained the usual way: the oldest tenth invited (of
 * them, the oldest half completed), then 1,000 rejected. The statuses other than waiting are rare and
 * sit at the old end of the list, the hard case for a page of the newest rows (walking the list newest
 * first would pass every waiting signup before the first match). The working copy is put back after.
 */
export async function statusViews(bench: Bench): Promise<Row[]> {
  const total = Number((await bench.expect({})).total.replaceAll(",", ""));
  const db = openDatabase(bench.databasePath);
  const waitlistId = bench.bigWaitlistId;
  const started = performance.now();
  await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId }, limit: Math.floor(total / 10) } }, db);
  await applyStatusAction("cli", { action: "complete", selection: { scope: { waitlistId }, limit: Math.floor(total / 20) } }, db);
  await applyStatusAction("cli", { action: "reject", selection: { scope: { waitlistId }, limit: 1_000 } }, db);
  bench.log(`  statuses set in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const { createdSince, createdUntil } = dateRange(bench.spanEnd);
  const views: DashboardView[] = [
    { name: "status waiting", filter: { status: ["waiting"] } },
    { name: "status invited", filter: { status: ["invited"] } },
    { name: "status completed", filter: { status: ["completed"] } },
    { name: "status rejected (1,000)", filter: { status: ["rejected"] } },
    { name: "status invited or rejected", filter: { status: ["invited", "rejected"] } },
    { name: "verified, status invited", filter: { verified: true, status: ["invited"] } },
    { name: `input role=${ROLE}, status rejected`, filter: { inputs: [{ label: "role", value: ROLE }], status: ["rejected"] } },
    { name: `input role=${ROLE}, status waiting`, filter: { inputs: [{ label: "role", value: ROLE }], status: ["waiting"] } },
    { name: "date range, status waiting or invited", filter: { createdSince, createdUntil, status: ["waiting", "invited"] } },
  ];
  try {
    return await measureViews(bench, views);
  } finally {
    // Back to every signup waiting (no transition leads from completed to waiting: the rows are put back directly).
    db.$client.exec("UPDATE signups SET status = 'waiting', status_changed_at = NULL WHERE status <> 'waiting'; DELETE FROM events;");
    db.$client.close();
  }
}
