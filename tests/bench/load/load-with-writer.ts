// Load with a concurrent writer (a script, not part of npm test):
//   npm run build && npx tsx tests/bench/load/load-with-writer.ts [port=3690] [seconds=60] [connections=64]
// 60 s of mixed API and dashboard traffic at 64 connections (autocannon) against the production
// server (lib/server) while `npm run cli -- signups import` writes 100,000 rows into a waitlist
// that is being read. Passes when there is no 5xx, no SQLITE_BUSY anywhere, the import completes and
// the counts afterwards equal what was imported. Prints the figures as JSON.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { makeSignups } from "@/tests/e2e/support/api-fixtures";
import { insertSignups } from "@/tests/support/insert-signups";
import { startTestServer } from "@/tests/e2e/support/test-server";
import { autocannon, type AutocannonRequest } from "./autocannon";

const [portText = "3690", secondsText = "60", connectionsText = "64"] = process.argv.slice(2);
const IMPORT_ROWS = 100_000;

async function writeCsv(path: string, rows: number) {
  const out = createWriteStream(path);
  out.write("email,verified,referral,custom_inputs\n");
  for (let i = 0; i < rows; i++) {
    const line = `load${i}@example.com,${i % 2 === 0},${i % 3 === 0 ? "yes" : "no"},${i % 4 === 0 ? '"[{""q"":""Team"",""a"":""Ops""}]"' : "[]"}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

/** p50/p99/max of the server-side durations (from the request log), per route. */
function serverDurations(lines: string[], ids: string[]) {
  const byRoute = new Map<string, number[]>();
  for (const line of lines) {
    if (!line.startsWith('{"time"')) continue;
    const entry = JSON.parse(line) as { msg: string; path?: string; duration_ms?: number };
    if (entry.msg !== "request" || entry.path === undefined) continue;
    const route = ids.reduce((path, id) => path.replace(id, "{id}"), entry.path) + (entry.path.startsWith("/waitlists/") ? ` (${entry.path.includes(ids[0]!) ? "big" : entry.path.includes(ids[1]!) ? "small" : "import target"})` : "");
    if (!byRoute.has(route)) byRoute.set(route, []);
    byRoute.get(route)!.push(entry.duration_ms!);
  }
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return Object.fromEntries(
    [...byRoute].map(([route, values]) => {
      const sorted = values.sort((a, b) => a - b);
      return [route, { count: sorted.length, p50: at(sorted, 0.5), p99: at(sorted, 0.99), max: sorted.at(-1) }];
    }),
  );
}

async function main() {
  const server = await startTestServer({
    portOffset: 0,
    port: Number(portText),
    name: "load-with-writer",
    // One key and one dashboard session serve all 64 connections: their per-minute limits would make
    // this a rate-limit test. (The session still runs at most two CSV exports at once: others get 429s.)
    env: { RATE_LIMIT_PER_MINUTE: "100000000", DASHBOARD_REQUESTS_PER_MINUTE: "100000000" },
  });
  const db = server.db();
  const big = await createWaitlist({ name: "Load: big", website: "https://example.com" }, db);
  const small = await createWaitlist({ name: "Load: small", website: "https://example.com" }, db);
  const target = await createWaitlist({ name: "Load: import target", website: "https://example.com" }, db);
  const seed = (waitlistId: string, count: number, tag: string) =>
    insertSignups(waitlistId, makeSignups(count, tag).map((s) => ({ ...s, customInputs: JSON.stringify(s.customInputs) })), db);
  seed(big.id, 200_000, "big");
  seed(small.id, 2_000, "small");
  const apiKey = await createApiKey({ name: "load", roles: ["waitlist:view"] }, db);
  const key = apiKey.key;
  const dashboard = { Cookie: `${SESSION_COOKIE}=${(await createSession(apiKey.id, db)).token}` };
  const csv = join(tmpdir(), `load-with-writer-${portText}.csv`);
  await writeCsv(csv, IMPORT_ROWS);

  const api = { Authorization: `Bearer ${key}` };
  const requests: AutocannonRequest[] = [
    { path: "/v1/waitlist", headers: api },
    { path: `/v1/waitlist/${big.id}`, headers: api },
    { path: `/v1/waitlist/${big.id}/signup?limit=100`, headers: api },
    { path: `/v1/waitlist/${big.id}/signup?verified=true&referral=false&limit=1000`, headers: api },
    { path: `/v1/waitlist/${small.id}/signup`, headers: api },
    { path: `/v1/waitlist/${target.id}/signup?limit=50`, headers: api },
    { path: `/v1/waitlist/${target.id}`, headers: api },
    { path: "/", headers: dashboard },
    { path: `/waitlists/${big.id}?verified=true`, headers: dashboard },
    { path: `/waitlists/${big.id}?referral=false&sort=email&page=40&size=50`, headers: dashboard },
    { path: `/waitlists/${target.id}`, headers: dashboard },
    { path: `/waitlists/${small.id}/export?verified=true`, headers: dashboard },
    { path: "/docs/api" },
  ];

  // Warm-up (not counted): route modules load and compile on first use.
  await autocannon({ url: server.url, connections: 8, duration: 5, requests });
  const warmupLines = server.stdout.length;

  const seconds = Number(secondsText);
  const started = Date.now();
  const load = autocannon({ url: server.url, connections: Number(connectionsText), duration: seconds, requests, timeout: 30 });
  // The import starts a few seconds into the load, so that it runs under full traffic.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const importStarted = Date.now();
  const cli = spawn(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "signups", "import", "--waitlist", target.id, csv, "--json"], {
    env: { ...process.env, DATABASE_PATH: server.databasePath, NODE_NO_WARNINGS: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let importOut = "";
  let importErr = "";
  cli.stdout!.on("data", (chunk: Buffer) => (importOut += chunk.toString()));
  cli.stderr!.on("data", (chunk: Buffer) => (importErr += chunk.toString()));
  const [importCode] = (await once(cli, "exit")) as [number | null];
  const importSeconds = (Date.now() - importStarted) / 1000;
  const result = await load;

  const counted = (db.$client.prepare("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?").get(target.id) as { n: number }).n;
  const served = (await (await fetch(`${server.url}/v1/waitlist/${target.id}/signup`, { headers: api })).json()) as unknown[];
  const logs = [...server.stdout, ...server.stderr, importErr].join("\n");
  const busy = (logs.match(/SQLITE_BUSY|database is locked/g) ?? []).length;
  const logged5xx = server.stdout.filter((line) => /"status":5\d\d/.test(line)).length;
  const serverTimes = serverDurations(server.stdout.slice(warmupLines), [big.id, small.id, target.id]);
  await server.stop();
  rmSync(csv, { force: true });

  const figures = {
    seconds: (Date.now() - started) / 1000,
    connections: Number(connectionsText),
    requests: result.requests.total,
    requests_per_second: result.requests.average,
    status: { "2xx": result["2xx"], "3xx": result["3xx"], "4xx": result["4xx"], "5xx": result["5xx"] },
    errors: result.errors,
    timeouts: result.timeouts,
    latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    import: { exit_code: importCode, seconds: importSeconds, result: importOut.trim() || importErr.trim() },
    counts: { imported_rows_in_db: counted, served_by_api: served.length, expected: IMPORT_ROWS },
    sqlite_busy_in_logs: busy,
    server_duration_ms_by_route: serverTimes,
    logged_5xx: logged5xx,
  };
  console.log(JSON.stringify(figures, null, 2));
  const ok =
    result["5xx"] === 0 && logged5xx === 0 && result.errors === 0 && busy === 0 && importCode === 0 && counted === IMPORT_ROWS && served.length === IMPORT_ROWS && result["2xx"] > 0;
  console.log(ok ? "PASS" : "FAIL");
  process.exit(ok ? 0 : 1);
}

void main();
