import { openDatabase } from "@/db/client";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { createApiKey, JOIN_ROLE } from "@/lib/domain/keys/queries";
import { autocannon, type AutocannonResult } from "./load/autocannon";
import { pacedLoad, type PacedResult } from "./load/paced";
import { mean } from "./measure";
import { processTree, stop, type Child } from "./processes";
import { row, type Row } from "./report";
import { cpuMs, type WorkersBench } from "./workers";

// Issue 30: `npm start` as shipped (WEB_CONCURRENCY unset: one worker per core) against one worker,
// the joins of 200 concurrent clients on each, alternately. Every worker's joins must reach the
// database through one writer, not take turns on SQLite's write lock: in the rows "app" is the
// default worker count and "baseline" one worker of the same run, with what a join costs each in CPU
// (a worker's join is relayed to the primary's writer). Two loads: each of 200 clients sending its
// next join once answered (the most joins a second the server takes; in that closed loop a join's
// latency is only 200 ÷ the rate, whatever the server), and launch day's OFFERED_JOINS_PER_SECOND
// as a steady open load (load/paced.ts: join i sent at start + i/rate, timed from then), whose p99
// is the latency target. autocannon's `overallRate` sent those as 200 at once at the start of every
// second: 279–324 ms p99 on either server, the queue of each second's burst.

const CLIENTS = 200;
/** Launch day's rate (join-load.ts's target for one worker). */
const OFFERED_JOINS_PER_SECOND = 1000;
const TARGET_P99_MS = 50;

/** A new open waitlist of the bench database, a waitlist:join key, and a check that the answered joins were stored (never more than were sent). */
async function onNewWaitlist<Result>(bench: WorkersBench, origin: string, load: (path: string, headers: Record<string, string>, nextBody: () => string) => Promise<{ result: Result; answered: number }>): Promise<Result> {
  const db = openDatabase(bench.databasePath);
  try {
    const waitlistId = await bench.newWaitlist();
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", db);
    const key = (await createApiKey({ name: "bench join workers", roles: [JOIN_ROLE] }, db)).key;
    let sent = 0;
    const { result, answered } = await load(`/v1/waitlist/${waitlistId}/signup`, { authorization: `Bearer ${key}`, "content-type": "application/json" }, () => JSON.stringify({ email: `workers.${++sent}@example.com` }));
    const stored = (db.$client.prepare("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?").get(waitlistId) as { n: number }).n;
    // Joins still in flight when autocannon stops may be stored too, never more than were sent.
    if (stored < answered || stored > sent) throw new Error(`joins on ${origin}: ${answered} answered, ${stored} stored, ${sent} sent`);
    return result;
  } finally {
    db.$client.close();
  }
}

/** CLIENTS clients each sending its next join once answered, for `seconds`; every answer checked against the database. */
function closedLoopJoins(bench: WorkersBench, origin: string, seconds: number): Promise<AutocannonResult> {
  return onNewWaitlist(bench, origin, async (path, headers, nextBody) => {
    const result = await autocannon({ url: origin, connections: CLIENTS, duration: seconds, timeout: 30, requests: [{ method: "POST", path, headers, setupRequest: (each) => ({ ...each, body: nextBody() }) }] });
    if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) throw new Error(`joins on ${origin}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
    return { result, answered: result["2xx"] };
  });
}

/** OFFERED_JOINS_PER_SECOND joins a second, steadily, for `seconds`; every answer checked against the database. */
function offeredJoins(bench: WorkersBench, origin: string, seconds: number): Promise<PacedResult> {
  return onNewWaitlist(bench, origin, async (path, headers, nextBody) => {
    const result = await pacedLoad({ origin, rate: OFFERED_JOINS_PER_SECOND, seconds, next: () => ({ method: "POST", path, headers, body: nextBody() }) });
    if (Object.keys(result.failed).length > 0) throw new Error(`joins on ${origin}: failed ${JSON.stringify(result.failed)}`);
    return { result, answered: result.ok };
  });
}

export async function joinWorkers(bench: WorkersBench): Promise<Row[]> {
  const scenario = `joins through /v1, ${CLIENTS} clients: default workers ÷ 1`;
  const started: Child[] = [];
  try {
    // WEB_CONCURRENCY unset: what `npm start` runs (one worker per core).
    const launched = { default: await bench.startApp({}, 22), one: await bench.startApp({ WEB_CONCURRENCY: "1" }, 23) };
    started.push(...Object.values(launched).map((each) => each.child));
    const servers = { default: launched.default.origin, one: launched.one.origin };
    const pids = { default: launched.default.child.process.pid!, one: launched.one.child.process.pid! };
    for (const origin of Object.values(servers)) await closedLoopJoins(bench, origin, 3); // warm-up: threads started, caches filled
    type Name = keyof typeof servers;
    const runs: Record<Name, { closed: AutocannonResult; offered: PacedResult; cpuUs: number; primaryCpuUs: number }[]> = { default: [], one: [] };
    for (let round = 0; round < bench.rounds; round++) {
      const order = Object.keys(servers) as Name[];
      for (const name of round % 2 ? order.reverse() : order) {
        // The CPU of every process of the server (all their threads) per join of the closed loop.
        const tree = processTree(pids[name]);
        const before = { all: cpuMs(tree), primary: cpuMs([pids[name]]) };
        const closed = await closedLoopJoins(bench, servers[name], bench.seconds);
        const cpuUs = ((cpuMs(tree) - before.all) * 1000) / closed["2xx"];
        const primaryCpuUs = ((cpuMs([pids[name]]) - before.primary) * 1000) / closed["2xx"];
        const offered = await offeredJoins(bench, servers[name], bench.seconds);
        bench.log(
          `  ${name}: ${closed.requests.average.toFixed(0)} joins/s, p50 ${closed.latency.p50} ms, p99 ${closed.latency.p99} ms, ${cpuUs.toFixed(0)} µs of CPU a join (the first process ${primaryCpuUs.toFixed(0)}); at ${OFFERED_JOINS_PER_SECOND}/s steady: ${offered.perSecond.toFixed(0)} joins/s, p50 ${offered.p50.toFixed(1)} ms, p99 ${offered.p99.toFixed(1)} ms, max ${offered.max.toFixed(0)} ms`,
        );
        runs[name].push({ closed, offered, cpuUs, primaryCpuUs });
      }
    }
    const average = (name: Name, figure: (run: (typeof runs)[Name][number]) => number) => mean(runs[name].map(figure));
    return [
      row(scenario, "sustained joins", "joins/s", average("default", (each) => each.closed.requests.average), average("one", (each) => each.closed.requests.average), { ratioAtLeast: 1 }),
      row(scenario, "join p99 latency, each client in a closed loop", "ms", average("default", (each) => each.closed.latency.p99), average("one", (each) => each.closed.latency.p99)),
      // What a join costs the machine: with the cores busy, the rate is about the cores' time ÷ this.
      row(scenario, "server CPU per join, all processes", "µs", average("default", (each) => each.cpuUs), average("one", (each) => each.cpuUs)),
      row(scenario, "of which the first process (the primary, which runs the writer threads)", "µs", average("default", (each) => each.primaryCpuUs), null),
      row(scenario, `join p99 latency at ${OFFERED_JOINS_PER_SECOND.toLocaleString("en")} joins/s, steady`, "ms", average("default", (each) => each.offered.p99), average("one", (each) => each.offered.p99), { appBelow: TARGET_P99_MS }),
    ];
  } finally {
    await Promise.all(started.map(stop));
  }
}
