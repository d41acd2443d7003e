import { spawn } from "node:child_process";
import { once } from "node:events";
import { percentile } from "./measure";
import { measureApi } from "./search-load";
import { row, type Row } from "./report";
import type { Bench } from "./scenarios";

const TARGET_P99_MS = 50;

interface UploadReport {
  seconds: number;
  uploadSeconds: number;
  outcome: { type: string; imported?: number; skipped_duplicates?: number };
}

/**
 * `/v1` latency while an admin uploads the 1,000,000-row import CSV to the dashboard (into a new,
 * empty waitlist): the body is streamed to a temporary file by the serving thread, the import runs
 * on a thread of its own (lib/server/import-runner.ts). First the same /v1 client on a quiet server.
 */
export async function uploadLoad(bench: Bench): Promise<Row[]> {
  const scenario = `/v1 during a dashboard upload of ${bench.importRows.toLocaleString("en")} rows (${bench.scaleLabel} dataset)`;
  await measureApi(bench, 2); // warm-up
  const quiet = await measureApi(bench, bench.searchLoadSeconds);
  bench.log(`  quiet: ${quiet.answered} answers, p50 ${quiet.p50.toFixed(1)} ms, p99 ${quiet.p99.toFixed(1)} ms, max ${quiet.max.toFixed(0)} ms`);

  const waitlistId = await bench.newWaitlist();
  const upload = spawn(process.execPath, ["--import", "tsx", "tests/bench/load/upload-file.ts", bench.app.origin, bench.adminCookieHeaders.cookie!, waitlistId, bench.importFile()], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  upload.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let finished = false;
  const exited = once(upload, "exit").then(([code]) => {
    finished = true;
    return code as number | null;
  });
  // The /v1 client runs in rounds of one second until the upload has ended, so the whole of it is measured.
  const rounds: Awaited<ReturnType<typeof measureApi>>[] = [];
  while (!finished) rounds.push(await measureApi(bench, 1));
  if ((await exited) !== 0) throw new Error(`${scenario}: the upload failed (${output})`);
  const report = JSON.parse(output.trim()) as UploadReport;
  if (report.outcome.type !== "done") throw new Error(`${scenario}: ${JSON.stringify(report.outcome)}`);
  const times = rounds.flatMap((each) => each.times);
  const at = (share: number) => percentile(times, share);
  const longest = Math.max(...times);
  bench.log(
    `  during the upload: ${times.length} answers, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${longest.toFixed(0)} ms; ` +
      `upload ${report.uploadSeconds.toFixed(1)} s, whole import ${report.seconds.toFixed(1)} s, imported ${report.outcome.imported}, skipped ${report.outcome.skipped_duplicates}`,
  );
  return [
    row(scenario, "/v1 p99 latency, quiet server", "ms", quiet.p99, null),
    row(scenario, "/v1 p50 latency", "ms", at(0.5), null),
    row(scenario, "/v1 p99 latency", "ms", at(0.99), null, { appBelow: TARGET_P99_MS }),
    row(scenario, "/v1 longest wait", "ms", longest, null),
    row(scenario, "upload sent (body received)", "s", report.uploadSeconds, null),
    row(scenario, "upload to result", "s", report.seconds, null),
  ];
}
