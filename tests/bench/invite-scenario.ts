import { openDatabase } from "@/db/client";
import { countSignups } from "@/lib/domain/signups/counts";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { row, type Row } from "./report";

const INVITED = 100_000;
const TARGET_SECONDS = 3;

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/**
 * Invites the 100,000 oldest verified waiting signups of the big list in one action (the CLI's
 * path: one transaction, set-based), checks that counts and the status facet are exact right after,
 * then withdraws them again (also timed), leaving the list as it was.
 */
export async function inviteScenario(databasePath: string, waitlistId: string, scaleLabel: string, log: (line: string) => void): Promise<Row[]> {
  const scenario = `invite ${INVITED.toLocaleString("en")} matching signups (${scaleLabel} list)`;
  const db = openDatabase(databasePath);
  try {
    const scope = { waitlistId, verified: true };
    const before = await timed(() => countSignups({ waitlistId }, db));
    const invite = await timed(() => applyStatusAction("cli", { action: "invite", selection: { scope, limit: INVITED } }, db));
    if (invite.result.changed !== INVITED) throw new Error(`${scenario}: ${invite.result.changed} changed`);
    const after = await timed(() => countSignups({ waitlistId }, db));
    const filtered = await timed(() => countSignups({ waitlistId, status: ["invited"] }, db));
    const direct = (db.$client.prepare("SELECT count(*) AS n FROM signups WHERE waitlist_id = ? AND status = 'invited'").get(waitlistId) as { n: number }).n;
    if (after.result.statusFacet.invited !== direct || filtered.result.total !== direct || after.result.total !== before.result.total) {
      throw new Error(`${scenario}: counts not exact (facet ${after.result.statusFacet.invited}, filter ${filtered.result.total}, rows ${direct})`);
    }
    const withdraw = await timed(() => applyStatusAction("cli", { action: "withdraw", selection: { scope: { waitlistId }, limit: INVITED } }, db));
    log(`  invite ${invite.ms.toFixed(0)} ms, withdraw ${withdraw.ms.toFixed(0)} ms; counts ${before.ms.toFixed(1)} ms before, ${after.ms.toFixed(1)} ms after, status=invited ${filtered.ms.toFixed(1)} ms`);
    return [
      row(scenario, "invite, one action", "s", invite.ms / 1000, null, { appBelow: TARGET_SECONDS }),
      row(scenario, "withdraw them again", "s", withdraw.ms / 1000, null, { appBelow: TARGET_SECONDS }),
      row(scenario, "counts and facets of the list, before", "ms", before.ms, null),
      row(scenario, "counts and facets of the list, right after (exact)", "ms", after.ms, null),
      row(scenario, "counts of status=invited", "ms", filtered.ms, null),
    ];
  } finally {
    db.$client.close();
  }
}
