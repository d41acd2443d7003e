// npm run bench [-- --out bench.json --rounds 2 --seconds 10 --connections 16 --reuse-build --dist-dir .next-bench --only stream,page]
// Builds the dataset, builds and starts the production app and the baseline server on it, measures
// each scenario on both (alternately) and prints one table. See tests/bench/README.md.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "@/db/client";
import { signupsScope } from "@/lib/api/scopes";
import { createApiKey, VIEW_ROLE } from "@/lib/domain/api-keys";
import { encodeCursor } from "@/lib/api/cursor";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { countSignups } from "@/lib/domain/signups/counts";
import { listSignupRows, prepareSignupInsert } from "@/lib/domain/signups/queries";
import { prepareDataset } from "./dataset";
import { prepareImportFile } from "./import-file";
import { cliImport } from "./import-scenario";
import { run, start, stop, waitForHttp, type Child } from "./processes";
import { formatTable, writeJson, type Row } from "./report";
import { csvExport, deepPage, firstPage, fullStream, livePage, singleWaitlist, staticPage } from "./scenarios";
import { workerScaling, type WorkersBench } from "./workers";

const SCENARIOS = { waitlist: singleWaitlist, "first-page": firstPage, "deep-page": deepPage, page: staticPage, "live-page": livePage, stream: fullStream, csv: csvExport, workers: workerScaling } as const;
// These measure the server's memory, so each starts on freshly started servers.
const FRESH_SERVERS: readonly string[] = ["stream", "csv"];

const { values: options } = parseArgs({
  options: {
    out: { type: "string" },
    signups: { type: "string", default: "1000000" },
    "import-rows": { type: "string", default: "1000000" },
    rounds: { type: "string", default: "2" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "16" },
    "page-requests": { type: "string", default: "15" },
    port: { type: "string", default: "3510" },
    "reuse-build": { type: "boolean", default: false },
    "dist-dir": { type: "string", default: ".next-bench" },
    only: { type: "string" },
  },
});

const count = (name: keyof typeof options) => {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
};
const selected = options.only ? options.only.split(",") : [...Object.keys(SCENARIOS), "import"];
for (const name of selected) if (name !== "import" && !(name in SCENARIOS)) throw new Error(`--only: unknown scenario "${name}" (${Object.keys(SCENARIOS).join(", ")}, import)`);

const startedAt = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const DIST_DIR = options["dist-dir"];

async function buildApp() {
  if (options["reuse-build"] && existsSync(join(DIST_DIR, "BUILD_ID"))) return log(`reusing the build in ${DIST_DIR}`);
  log(`next build into ${DIST_DIR} …`);
  const started = performance.now();
  // next build adds its output folder's types to tsconfig.json; the benchmark leaves the tree as it found it.
  const tsconfig = readFileSync("tsconfig.json", "utf8");
  try {
    await run(process.execPath, ["node_modules/next/dist/bin/next", "build"], { NEXT_DIST_DIR: DIST_DIR });
  } finally {
    writeFileSync("tsconfig.json", tsconfig);
  }
  log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** A key and a dashboard session on the bench database, what the scenarios look for, and a writer of new signups. */
function fixtures(path: string, waitlistId: string) {
  const db = openDatabase(path);
  const key = createApiKey({ name: "bench", roles: [VIEW_ROLE] }, db);
  const { token } = createSession(key.id, db);
  const verified = { waitlistId, verified: true };
  const deep = listSignupRows({ scope: verified, sort: "created_at", direction: "asc", offset: Math.floor(countSignups(verified, db).total * 0.9), limit: 1 }, db)[0]!;
  const newest = listSignupRows({ scope: verified, offset: 0, limit: 1 }, db)[0]!;
  const insert = prepareSignupInsert(waitlistId, db);
  let written = 0;
  const writeSignup = () => {
    const email = `live.signup${++written}@example.com`;
    insert({ email, verified: true, referral: false, customInputs: "[]" }, Date.now());
    return email;
  };
  return {
    close: () => db.$client.close(),
    writeSignup,
    apiHeaders: { authorization: `Bearer ${key.key}` },
    cookieHeaders: { cookie: `${SESSION_COOKIE}=${token}` },
    deepCursor: encodeCursor(signupsScope({ waitlistId, verified: true }), { createdAt: deep.createdAt.getTime(), id: deep.id }),
    pageMustContain: newest.email,
  };
}

const APP_PORT = () => count("port");
const ORIGIN = (port: number) => `http://127.0.0.1:${port}`;

/**
 * The production app (what `npm start` runs: lib/server/main.ts, Next.js behind the request-log
 * server), answering. The per-key rate limit and the dashboard's per-session budget are raised so
 * that the load is measured rather than refused; their bookkeeping still runs on every request.
 */
async function startApp(databasePath: string, port: number, env: Record<string, string> = {}): Promise<Child> {
  const appEnv = { DATABASE_PATH: databasePath, NEXT_DIST_DIR: DIST_DIR, HOST: "127.0.0.1", PORT: String(port), RATE_LIMIT_PER_MINUTE: "1000000000", DASHBOARD_REQUESTS_PER_MINUTE: "1000000000", ...env };
  const app = start(process.execPath, ["--import", "tsx", "lib/server/main.ts"], appEnv);
  await waitForHttp(`${ORIGIN(port)}/v1/openapi.json`, app);
  return app;
}

/** The app as one process (the per-worker figures; the workers scenario scales it) and the baseline, on the same database file. */
async function startServers(databasePath: string): Promise<[Child, Child]> {
  const app = await startApp(databasePath, APP_PORT(), { WEB_CONCURRENCY: "1" });
  const baseline = start(process.execPath, ["--import", "tsx", "tests/bench/baseline-server.ts"], { DATABASE_PATH: databasePath, PORT: String(APP_PORT() + 10) });
  await waitForHttp(`${ORIGIN(APP_PORT() + 10)}/`, baseline);
  return [app, baseline];
}

async function main() {
  const workDir = mkdtempSync(join(tmpdir(), "waitlist-bench-"));
  const cacheDir = join(tmpdir(), "waitlist-bench-cache");
  mkdirSync(cacheDir, { recursive: true });
  const servers: Child[] = [];
  let closeDatabase = () => {};
  try {
    log(`dataset: ${count("signups").toLocaleString("en")} signups …`);
    const dataset = prepareDataset(workDir, count("signups"));
    log(dataset.cached ? "dataset from the cache" : `dataset built in ${dataset.buildSeconds.toFixed(1)} s`);
    const importRows = count("import-rows");
    const importFile = selected.includes("import") ? await prepareImportFile(cacheDir, importRows) : "";
    const rows: Row[] = [];
    if (selected.some((name) => name !== "import")) {
      await buildApp();
      const { close, ...fixture } = fixtures(dataset.path, dataset.bigWaitlistId);
      closeDatabase = close;
      const shared = {
        bigWaitlistId: dataset.bigWaitlistId,
        smallWaitlistId: dataset.smallWaitlistIds[0]!,
        ...fixture,
        rounds: count("rounds"),
        seconds: count("seconds"),
        connections: count("connections"),
        pageRequests: count("page-requests"),
        log,
      };
      let bench: WorkersBench | undefined;
      for (const [name, scenario] of Object.entries(SCENARIOS)) {
        if (!selected.includes(name)) continue;
        if (!bench || FRESH_SERVERS.includes(name)) {
          await Promise.all(servers.splice(0).map(stop));
          const [app, baseline] = await startServers(dataset.path);
          servers.push(app, baseline);
          bench = {
            ...shared,
            app: { name: "app", origin: ORIGIN(APP_PORT()), pid: app.process.pid! },
            baseline: { name: "baseline", origin: ORIGIN(APP_PORT() + 10), pid: baseline.process.pid! },
            startApp: async (env, portOffset) => ({ origin: ORIGIN(APP_PORT() + portOffset), child: await startApp(dataset.path, APP_PORT() + portOffset, env) }),
          };
          log(`servers up: app ${bench.app.origin} (pid ${bench.app.pid}), baseline ${bench.baseline.origin} (pid ${bench.baseline.pid})`);
        }
        rows.push(...(await scenario(bench)));
      }
      await Promise.all(servers.splice(0).map(stop));
    }
    if (selected.includes("import")) rows.push(...(await cliImport(workDir, importFile, importRows, log)));

    console.log(`\n${formatTable(rows)}\n`);
    const missed = rows.filter((each) => each.met === false);
    console.log(missed.length ? `targets missed: ${missed.map((each) => `${each.scenario} ${each.metric}`).join("; ")}` : "all targets met");
    log("done");
    if (options.out) {
      const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version };
      writeJson(options.out, { measuredAt: new Date().toISOString(), machine, options, dataset: { signups: dataset.bigCount, buildSeconds: dataset.buildSeconds, cached: dataset.cached }, rows });
      log(`wrote ${options.out}`);
    }
  } finally {
    closeDatabase();
    await Promise.all(servers.map(stop));
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
