import { openDatabase } from "@/db/client";
import { signupPosition } from "@/lib/domain/joining/position";
import { percentile } from "./measure";
import { row, type Row } from "./report";
import { seededRandom } from "./random";

const TARGET_MS = 5;
const SAMPLES = 2_000;
const CHECKED = 5;

/**
 * "You're number N in line" for signups spread over the big list (its newest included): each
 * position by the query layer (signup_counts for the days before, the indexes within the day), timed;
 * a few checked against a plain count of every waiting signup before them (slow: that is the point).
 */
export async function positionScenario(databasePath: string, waitlistId: string, scaleLabel: string, log: (line: string) => void): Promise<Row[]> {
  const scenario = `position in line (${scaleLabel} list)`;
  const db = openDatabase(databasePath);
  try {
    const sqlite = db.$client;
    const { low, high } = sqlite.prepare("SELECT min(id) AS low, max(id) AS high FROM signups WHERE waitlist_id = ?").get(waitlistId) as { low: number; high: number };
    const random = seededRandom(24);
    const ids = [high, ...Array.from({ length: SAMPLES - 1 }, () => low + Math.floor(random() * (high - low + 1)))];
    await signupPosition(waitlistId, high, db); // prepares the statements
    // Wall time, and this thread's CPU time: on a busy machine the first includes waiting for a core.
    const times: number[] = [];
    const cpuTimes: number[] = [];
    const positions = new Map<number, number | null>();
    for (const id of ids) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      positions.set(id, await signupPosition(waitlistId, id, db));
      times.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      cpuTimes.push((used.user + used.system) / 1000);
    }
    const plain = sqlite.prepare<{ waitlistId: string; id: number }, { n: number }>(
      `SELECT count(*) AS n FROM signups AS other, (SELECT created_at, id FROM signups WHERE id = @id) AS me
       WHERE other.waitlist_id = @waitlistId AND other.status = 'waiting' AND (other.created_at < me.created_at OR (other.created_at = me.created_at AND other.id < me.id))`,
    );
    log(`  ${SAMPLES} positions: p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms; CPU p99 ${percentile(cpuTimes, 0.99).toFixed(2)} ms`);
    const checked = ids.filter((id) => positions.get(id) !== null).slice(0, CHECKED);
    for (const id of checked) {
      const expected = 1 + plain.get({ waitlistId, id })!.n;
      if (positions.get(id) !== expected) throw new Error(`${scenario}: signup ${id} is number ${positions.get(id)}, a plain count says ${expected}`);
    }
    log(`  ${checked.length} of them checked against a plain count`);
    return [
      row(scenario, "one position, p50", "ms", percentile(times, 0.5), null),
      row(scenario, "one position, p99", "ms", percentile(times, 0.99), null, { appBelow: TARGET_MS }),
      row(scenario, "one position, slowest", "ms", Math.max(...times), null),
      row(scenario, "one position, p99 of CPU time", "ms", percentile(cpuTimes, 0.99), null, { appBelow: TARGET_MS }),
    ];
  } finally {
    db.$client.close();
  }
}
