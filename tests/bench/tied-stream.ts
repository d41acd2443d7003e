import { openDatabase } from "@/db/client";
import { createApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { download, mean } from "./measure";
import { stop, type Child } from "./processes";
import { row, type Row } from "./report";
import type { TiedDataset } from "./tied-dataset";

export interface TiedStreamBench {
  rounds: number;
  bigWaitlistId: string;
  smallWaitlistId: string;
  log: (line: string) => void;
  tiedDataset: () => Promise<TiedDataset>;
  /** Starts the production server (one process) on `databasePath`, on the bench port + `portOffset`. */
  startApp(env: Record<string, string>, portOffset: number, databasePath: string): Promise<{ origin: string; child: Child }>;
}

// Issue 30: a list imported without created_at (every signup at one instant) streams in at most 1.5×
// the time of the same size of list with spread timestamps. Before, each batch re-read its tie from
// its start: 60–72 s against 2.75 s.
const TARGET = { ratioAtMost: 1.5 };

/**
 * The full stream of the tied list and of the dataset's own big list, from one app on one database,
 * alternately. In its rows "app" is the tied list and "baseline" the list with spread timestamps.
 */
export async function tiedStream(bench: TiedStreamBench): Promise<Row[]> {
  const tied = await bench.tiedDataset();
  const db = openDatabase(tied.path);
  const headers = { authorization: `Bearer ${(await createApiKey({ name: "bench tied", roles: [VIEW_ROLE] }, db)).key}` };
  db.$client.close();
  const { origin, child } = await bench.startApp({ WEB_CONCURRENCY: "1" }, 30, tied.path);
  try {
    // Loads the route's code before anything is timed.
    await download(`${origin}/v1/waitlist/${bench.smallWaitlistId}/signup`, headers);
    const lists = { tied: tied.tiedWaitlistId, spread: bench.bigWaitlistId };
    const runs: Record<keyof typeof lists, { seconds: number; bytes: number }[]> = { tied: [], spread: [] };
    for (let round = 0; round < bench.rounds; round++) {
      for (const name of round % 2 ? (["spread", "tied"] as const) : (["tied", "spread"] as const)) {
        const result = await download(`${origin}/v1/waitlist/${lists[name]}/signup`, headers);
        if (result.status !== 200) throw new Error(`stream of the ${name} list: status ${result.status}`);
        runs[name].push({ seconds: result.lastByteMs / 1000, bytes: result.bytes });
        bench.log(`  ${name}: ${(result.bytes / 1e6).toFixed(1)} MB in ${(result.lastByteMs / 1000).toFixed(2)} s`);
      }
    }
    const seconds = (name: keyof typeof lists) => mean(runs[name].map((run) => run.seconds));
    const mbPerSecond = (name: keyof typeof lists) => mean(runs[name].map((run) => run.bytes / 1e6 / run.seconds));
    const scenario = "full stream, 1M imported without created_at (vs spread)";
    return [row(scenario, "time", "s", seconds("tied"), seconds("spread"), TARGET), row(scenario, "throughput", "MB/s", mbPerSecond("tied"), mbPerSecond("spread"))];
  } finally {
    await stop(child);
  }
}
