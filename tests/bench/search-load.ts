import { spawn } from "node:child_process";
import { once } from "node:events";
import { filterToApiParams } from "@/lib/domain/signups/filter";
import { dashboardPath, searchLoadViews } from "./dashboard-views";
import { download, percentile } from "./measure";
import { row, type Row } from "./report";
import type { Bench } from "./scenarios";

const TARGET_P99_MS = 50;

/**
 * One /v1 client in a closed loop (the next request leaves when the last answer has arrived),
 * alternating the single waitlist and its first signups page, for `seconds`. The request still
 * waiting when the time is up is awaited and counted: a stall at the end is a stall too (autocannon
 * leaves it out). Each request has a connection of its own: a server whose event loop was blocked
 * for longer than its keep-alive timeout closes a kept-alive connection before it reads the request
 * waiting there, and the client sees ECONNRESET.
 */
export async function measureApi(bench: Bench, seconds: number) {
  const paths = [`/v1/waitlist/${bench.bigWaitlistId}`, `/v1/waitlist/${bench.bigWaitlistId}/signup?limit=100`];
  const times: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  while (performance.now() < deadline) {
    const result = await download(bench.app.origin + paths[times.length % paths.length]!, bench.apiHeaders);
    if (result.status !== 200) throw new Error(`/v1 under load: status ${result.status}`);
    times.push(result.lastByteMs);
  }
  return { answered: times.length, p50: percentile(times, 0.5), p99: percentile(times, 0.99), max: Math.max(...times), times };
}

interface LoopReport {
  requests: number;
  statuses: Record<string, number>;
  medianMs: number | null;
  p90Ms: number | null;
  seconds: number;
}

/**
 * `/v1` latency while four signed-in dashboard clients (tests/bench/load/search-loop.ts, a process
 * of its own) loop over views with an email search and counts (alone, verified, a custom input, a
 * date range), each request with a new search fragment. First the same /v1 client on a quiet
 * server, for comparison.
 */
export async function searchLoad(bench: Bench): Promise<Row[]> {
  const views = searchLoadViews(bench.spanEnd);
  const scenario = `/v1 under 4 dashboard search loops (${bench.scaleLabel})`;
  bench.log(`${scenario}: ${views.map((filter) => dashboardPath(bench.bigWaitlistId, { ...filter, emailContains: "…" })).join(", ")}`);
  await measureApi(bench, 2); // warm-up
  const quiet = await measureApi(bench, bench.searchLoadSeconds);
  bench.log(`  quiet: ${quiet.answered} answers, p50 ${quiet.p50.toFixed(1)} ms, p99 ${quiet.p99.toFixed(1)} ms, max ${quiet.max.toFixed(0)} ms`);

  const loops = spawn(process.execPath, ["--import", "tsx", "tests/bench/load/search-loop.ts", bench.app.origin, bench.cookieHeaders.cookie!, bench.bigWaitlistId, JSON.stringify(views.map((filter) => filterToApiParams(filter).toString()))], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  loops.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let loaded: Awaited<ReturnType<typeof measureApi>>;
  try {
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the loops start and reach the server
    loaded = await measureApi(bench, bench.searchLoadSeconds);
  } finally {
    loops.kill("SIGTERM");
    await once(loops, "exit");
  }
  const report = JSON.parse(output.trim() || "null") as LoopReport | null;
  if (!report) throw new Error(`${scenario}: the dashboard loops did not report (${output})`);
  const failed = Object.entries(report.statuses).filter(([status]) => status !== "200");
  if (failed.length > 0) throw new Error(`${scenario}: dashboard answers other than 200: ${JSON.stringify(report.statuses)}`);
  bench.log(`  loaded: ${loaded.answered} answers, p50 ${loaded.p50.toFixed(1)} ms, p99 ${loaded.p99.toFixed(1)} ms, max ${loaded.max.toFixed(0)} ms`);
  // On a slow build a view can take longer than the whole measurement: then none finished, and there is no median.
  bench.log(`  dashboard loops: ${report.requests} views finished in ${report.seconds.toFixed(1)} s, median ${report.medianMs?.toFixed(0) ?? "–"} ms, p90 ${report.p90Ms?.toFixed(0) ?? "–"} ms`);
  return [
    row(scenario, "/v1 p99 latency, quiet server", "ms", quiet.p99, null),
    row(scenario, "/v1 p50 latency", "ms", loaded.p50, null),
    row(scenario, "/v1 p99 latency", "ms", loaded.p99, null, { appBelow: TARGET_P99_MS }),
    row(scenario, "/v1 longest wait", "ms", loaded.max, null),
    row(scenario, "dashboard views finished", "views/s", report.requests / report.seconds, null),
    ...(report.medianMs === null ? [] : [row(scenario, "dashboard view median", "ms", report.medianMs, null)]),
  ];
}
