import { openDatabase } from "@/db/client";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createApiKey, JOIN_ROLE } from "@/lib/domain/keys/queries";
import { autocannon, type AutocannonResult } from "./load/autocannon";
import { mean } from "./measure";
import { stop, type Child } from "./processes";
import { row, type Row } from "./report";
import type { WorkersBench } from "./workers";

// Issue 30: `npm start` as shipped (WEB_CONCURRENCY unset: one worker per core) against one worker,
// the joins of 200 concurrent clients on each, alternately. Every worker's joins must reach the
// database through one writer, not take turns on SQLite's write lock: in the rows "app" is the
// default worker count and "baseline" one worker of the same run.

const CLIENTS = 200;
const TARGET_P99_MS = 50;

/** Sustained joins on a new open waitlist of `origin`'s server, each with a new address; every answer checked against the database. */
async function sustainedJoins(bench: WorkersBench, origin: string, seconds: number): Promise<AutocannonResult> {
  const db = openDatabase(bench.databasePath);
  try {
    const waitlistId = bench.newWaitlist();
    updateJoinSettings(waitlistId, { joining: "open" }, "cli", db);
    const key = createApiKey({ name: "bench join workers", roles: [JOIN_ROLE] }, db).key;
    let sent = 0;
    const result = await autocannon({
      url: origin,
      connections: CLIENTS,
      duration: seconds,
      timeout: 30,
      requests: [
        {
          method: "POST",
          path: `/v1/waitlist/${waitlistId}/signup`,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          setupRequest: (each) => ({ ...each, body: JSON.stringify({ email: `workers.${++sent}@example.com` }) }),
        },
      ],
    });
    if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) throw new Error(`joins on ${origin}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
    const stored = (db.$client.prepare("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?").get(waitlistId) as { n: number }).n;
    // Joins still in flight when autocannon stops may be stored too, never more than were sent.
    if (stored < result["2xx"] || stored > sent) throw new Error(`joins on ${origin}: ${result["2xx"]} answered, ${stored} stored, ${sent} sent`);
    return result;
  } finally {
    db.$client.close();
  }
}

export async function joinWorkers(bench: WorkersBench): Promise<Row[]> {
  const scenario = `joins through /v1, ${CLIENTS} clients: default workers ÷ 1`;
  const started: Child[] = [];
  try {
    // WEB_CONCURRENCY unset: what `npm start` runs (one worker per core).
    const launched = { default: await bench.startApp({}, 22), one: await bench.startApp({ WEB_CONCURRENCY: "1" }, 23) };
    started.push(launched.default.child, launched.one.child);
    const servers = { default: launched.default.origin, one: launched.one.origin };
    for (const origin of Object.values(servers)) await sustainedJoins(bench, origin, 3); // warm-up: threads started, caches filled
    const runs: Record<keyof typeof servers, AutocannonResult[]> = { default: [], one: [] };
    for (let round = 0; round < bench.rounds; round++) {
      const order = Object.keys(servers) as (keyof typeof servers)[];
      for (const name of round % 2 ? order.reverse() : order) {
        const result = await sustainedJoins(bench, servers[name], bench.seconds);
        bench.log(`  ${name}: ${result.requests.average.toFixed(0)} joins/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
        runs[name].push(result);
      }
    }
    const average = (name: keyof typeof servers, figure: (result: AutocannonResult) => number) => mean(runs[name].map(figure));
    return [
      row(scenario, "sustained joins", "joins/s", average("default", (each) => each.requests.average), average("one", (each) => each.requests.average), { ratioAtLeast: 1 }),
      row(scenario, "join p99 latency", "ms", average("default", (each) => each.latency.p99), average("one", (each) => each.latency.p99), { appBelow: TARGET_P99_MS }),
    ];
  } finally {
    await Promise.all(started.map(stop));
  }
}
