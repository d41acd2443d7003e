// npm run bench [-- --out bench.json --rounds 2 --seconds 10 --connections 16 --reuse-build --dist-dir .next-bench --only stream,page --scale 10m]
// npm run bench -- --engine postgres [--database-url postgres://…]   (the /v1 reads, the dashboard views and the joins on PostgreSQL)
// Builds the dataset, builds and starts the production app and the baseline server on it, measures
// each scenario on both (alternately) and prints one table. See tests/bench/README.md.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, type AppDatabase } from "@/db/client";
import { signupsScope } from "@/lib/api/scopes";
import { ADMIN_ROLE, createApiKey, VIEW_ROLE } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { encodeCursor } from "@/lib/api/cursor";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import type { SignupFilter } from "@/lib/domain/signups/filter";
import { countSignups } from "@/lib/domain/signups/counts";
import { listSignupRows } from "@/lib/domain/signups/queries";
import { insertSignups } from "../support/insert-signups";
import { insertPgSignups } from "./pg-dataset";
import { nextCli } from "../support/next-cli";
import { prepareDataset, type Shape } from "./dataset";
import { emailLookup } from "./email-lookup";
import { prepareImportFile, prepareNdjsonImportFile } from "./import-file";
import { cliImport, cliNdjsonImport } from "./import-scenario";
import { inviteScenario } from "./invite-scenario";
import { preparePgDataset } from "./pg-dataset";
import { positionScenario } from "./positions";
import { rankingScenario } from "./ranking-scenario";
import { funnelScenario } from "./funnel-scenario";
import { deliverScenario } from "./deliver-scenario";
import { run, start, stop, waitForHttp, type Child } from "./processes";
import { formatTable, writeJson, type Row } from "./report";
import { csvExport, deepPage, firstPage, fullStream, livePage, singleWaitlist, staticPage, type Fixture } from "./scenarios";
import { searchLoad } from "./search-load";
import { uploadLoad } from "./upload-load";
import { inviteLoad } from "./invite-load";
import { redeemLoad } from "./redeem-load";
import { scheduleLoad } from "./schedule-load";
import { joinLoad } from "./join-load";
import { joinWorkers } from "./join-workers";
import { segments } from "./segments";
import { statusViews } from "./status-views";
import { prepareTiedDataset, type TiedDataset } from "./tied-dataset";
import { tiedStream } from "./tied-stream";
import { wireScenario } from "./wire";
import { workerScaling, type WorkersBench } from "./workers";

// Scenarios against the two servers, in this order.
const SCENARIOS = {
  waitlist: singleWaitlist,
  "first-page": firstPage,
  "deep-page": deepPage,
  page: staticPage,
  "live-page": livePage,
  segments,
  "status-views": statusViews,
  "search-load": searchLoad,
  "upload-load": uploadLoad,
  "invite-load": inviteLoad,
  "redeem-load": redeemLoad,
  "schedule-load": scheduleLoad,
  joins: joinLoad,
  "joins-workers": joinWorkers,
  stream: fullStream,
  "tied-stream": tiedStream,
  csv: csvExport,
  wire: wireScenario,
  workers: workerScaling,
} as const;
// These measure the server's memory, so each starts on freshly started servers.
const FRESH_SERVERS: readonly string[] = ["stream", "csv"];
// Scenarios without servers.
const STANDALONE = ["lookup", "invite", "positions", "ranking", "import", "ndjson-import", "deliver", "funnel"] as const;
const SCALES = { "1m": 1_000_000, "10m": 10_000_000 } as const;
// What --engine postgres measures: the /v1 reads, the dashboard views and the joins, app and baseline on the same PostgreSQL database.
const POSTGRES_SCENARIOS: readonly string[] = ["waitlist", "first-page", "deep-page", "segments", "joins", "stream"];

const { values: options } = parseArgs({
  options: {
    out: { type: "string" },
    scale: { type: "string", default: "1m" },
    signups: { type: "string" },
    "import-rows": { type: "string", default: "1000000" },
    rounds: { type: "string", default: "2" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "16" },
    "page-requests": { type: "string", default: "15" },
    "search-load-seconds": { type: "string", default: "30" },
    port: { type: "string", default: "3510" },
    "reuse-build": { type: "boolean", default: false },
    "dist-dir": { type: "string", default: ".next-bench" },
    only: { type: "string" },
    engine: { type: "string", default: "sqlite" },
    "database-url": { type: "string" },
  },
});

const count = (name: keyof typeof options) => {
  const value = Number(options[name]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
};
const ALL_SCENARIOS: readonly string[] = [...Object.keys(SCENARIOS), ...STANDALONE];
if (options.engine !== "sqlite" && options.engine !== "postgres") throw new Error(`--engine must be sqlite or postgres (got ${options.engine})`);
const onPostgres = options.engine === "postgres";
if (!onPostgres && options["database-url"] !== undefined) throw new Error("--database-url needs --engine postgres");
// PostgreSQL keeps its secrets sealed with SECRETS_KEY (the bench and its servers share this process's
// environment): a throw-away database takes a key of its own, a kept one the key it was made with.
if (onPostgres && !process.env.SECRETS_KEY) {
  if (options["database-url"] !== undefined) throw new Error("--database-url needs SECRETS_KEY, the one the bench's database was made with (any 64 hex digits the first time)");
  process.env.SECRETS_KEY = randomBytes(32).toString("hex");
}
const engineScenarios = onPostgres ? POSTGRES_SCENARIOS : ALL_SCENARIOS;
const selected = options.only ? options.only.split(",") : engineScenarios;
for (const name of selected) if (!engineScenarios.includes(name)) throw new Error(`--only: unknown scenario "${name}"${onPostgres ? " on PostgreSQL" : ""} (${engineScenarios.join(", ")})`);
if (!(options.scale in SCALES)) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(", ")}`);
const bigCount = options.signups === undefined ? SCALES[options.scale as keyof typeof SCALES] : count("signups");
const scaleLabel = bigCount % 1_000_000 === 0 ? `${bigCount / 1_000_000}M` : bigCount.toLocaleString("en");

const startedAt = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const DIST_DIR = options["dist-dir"];

/** The `next` command's script, from the `bin` field Next.js publishes (not a path inside its package). */
async function buildApp() {
  if (options["reuse-build"] && existsSync(join(DIST_DIR, "BUILD_ID"))) return log(`reusing the build in ${DIST_DIR}`);
  log(`next build into ${DIST_DIR} …`);
  const started = performance.now();
  // Into another folder than .next, next.config.ts leaves tsconfig.json as it is.
  await run(process.execPath, [nextCli(), "build"], { NEXT_DIST_DIR: DIST_DIR });
  log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** The dataset's shape and the database holding it: the SQLite file (`path`), or PostgreSQL's (`path` empty). */
type BenchData = Shape & { path: string; spanEnd: number };

/** A key and a dashboard session on the bench database, what the scenarios look for, and a writer of new signups. */
async function fixtures(dataset: BenchData, db: AppDatabase, importFile: string, importRows: number): Promise<Fixture> {
  const waitlistId = dataset.bigWaitlistId;
  const key = await createApiKey({ name: "bench", roles: [VIEW_ROLE] }, db);
  const { token } = await createSession(key.id, db);
  const adminKey = await createApiKey({ name: "bench admin", roles: [ADMIN_ROLE] }, db);
  const admin = await createSession(adminKey.id, db);
  const verified = { waitlistId, verified: true };
  const newest = (await listSignupRows({ scope: verified, offset: 0, limit: 1 }, db))[0]!;
  const deepCursor = async () => {
    const deep = (await listSignupRows({ scope: verified, sort: "created_at", direction: "asc", offset: Math.floor((await countSignups(verified, db)).total * 0.9), limit: 1 }, db))[0]!;
    return encodeCursor(signupsScope({ waitlistId, verified: true }), { createdAt: deep.createdAt.getTime(), id: deep.id });
  };
  let cursor: string | undefined;
  let written = 0;
  const writeSignup = async () => {
    const signup = { email: `live.signup${++written}@example.com`, verified: true, referral: false, customInputs: "[]" };
    if (db.$engine.kind === "sqlite") insertSignups(waitlistId, [signup], db);
    else await insertPgSignups(waitlistId, [signup], db);
    return signup.email;
  };
  const expect = async (filter: SignupFilter) => {
    const scope = { waitlistId, ...filter };
    const first = (await listSignupRows({ scope, offset: 0, limit: 1 }, db))[0];
    if (!first) throw new Error(`no signup matches ${JSON.stringify(filter)}`);
    const counts = await countSignups(scope, db);
    return { email: first.email, total: `${counts.total.toLocaleString("en")}${counts.exact ? "" : "+"}` };
  };
  return {
    databasePath: dataset.path,
    bigWaitlistId: waitlistId,
    smallWaitlistId: dataset.smallWaitlistIds[0]!,
    sampleEmail: dataset.sampleEmail,
    spanEnd: dataset.spanEnd,
    scaleLabel,
    pageTargetMs: bigCount > 1_000_000 ? 600 : 150,
    writeSignup,
    db,
    expect,
    apiHeaders: { authorization: `Bearer ${key.key}` },
    cookieHeaders: { cookie: `${SESSION_COOKIE}=${token}` },
    deepCursor: async () => (cursor ??= await deepCursor()),
    pageMustContain: newest.email,
    pageRequests: count("page-requests"),
    log,
    adminCookieHeaders: { cookie: `${SESSION_COOKIE}=${admin.token}` },
    adminApiHeaders: { authorization: `Bearer ${adminKey.key}` },
    newWaitlist: async () => (await createWaitlist({ name: `Upload ${Date.now()}`, website: "https://upload.example.com" }, db)).id,
    importFile: () => {
      if (!importFile) throw new Error("no import file was prepared");
      return importFile;
    },
    importRows,
  };
}

const APP_PORT = () => count("port");
const ORIGIN = (port: number) => `http://127.0.0.1:${port}`;

/** The limits raised so that the load is measured rather than refused (every load comes from 127.0.0.1). */
const LOAD_LIMITS = { RATE_LIMIT_PER_MINUTE: "1000000000", DASHBOARD_REQUESTS_PER_MINUTE: "1000000000", JOINS_PER_CLIENT_PER_HOUR: "1000000000", JOIN_BURST_PER_CLIENT: "1000000000" };

/**
 * The production app (what `npm start` runs: lib/server/main.ts, Next.js behind the request-log
 * server), answering. The per-key rate limit, the dashboard's per-session budget and the per-client
 * join limit (every load comes from 127.0.0.1) are raised so that the load is measured rather than
 * refused; their bookkeeping still runs on every request.
 */
async function startApp(databasePath: string, port: number, env: Record<string, string> = {}): Promise<Child> {
  // On PostgreSQL, env's DATABASE_URL names the database and the path is empty.
  const appEnv = { ...(databasePath ? { DATABASE_PATH: databasePath } : {}), NEXT_DIST_DIR: DIST_DIR, HOST: "127.0.0.1", PORT: String(port), ...LOAD_LIMITS, ...env };
  const app = start(process.execPath, ["--import", "tsx", "lib/server/main.ts"], appEnv);
  // One that never answers (a slow start on a busy machine) is stopped, not left holding the port for the next run.
  await waitForHttp(`${ORIGIN(port)}/v1/openapi.json`, app).catch(async (error: unknown) => {
    await stop(app);
    throw error;
  });
  return app;
}

/** The app as one process (the per-worker figures; the workers scenario scales it) and the baseline, on the same database: the SQLite file, or PostgreSQL's at `databaseUrl`. */
async function startServers(databasePath: string, databaseUrl?: string): Promise<[Child, Child]> {
  const database: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_PATH: databasePath };
  const app = await startApp(databaseUrl ? "" : databasePath, APP_PORT(), { WEB_CONCURRENCY: "1", ...database });
  const baseline = start(process.execPath, ["--import", "tsx", "tests/bench/baseline-server.ts"], { ...database, PORT: String(APP_PORT() + 10), ...LOAD_LIMITS });
  await waitForHttp(`${ORIGIN(APP_PORT() + 10)}/`, baseline);
  return [app, baseline];
}

async function main() {
  const workDir = mkdtempSync(join(tmpdir(), "waitlist-bench-"));
  const cacheDir = join(tmpdir(), "waitlist-bench-cache");
  mkdirSync(cacheDir, { recursive: true });
  const servers: Child[] = [];
  let closeDatabase: () => void | Promise<void> = () => {};
  try {
    log(`load average before the run: ${loadavg().map((each) => each.toFixed(2)).join(", ")} (1, 5, 15 min) on ${cpus().length} cores`);
    log(`dataset: ${bigCount.toLocaleString("en")} signups${onPostgres ? " in PostgreSQL" : ""} …`);
    const pgDataset = onPostgres ? await preparePgDataset({ url: options["database-url"], bigCount }) : undefined;
    if (pgDataset) closeDatabase = () => pgDataset.close();
    const dataset = pgDataset ? { ...pgDataset, path: "", cachedPath: "" } : prepareDataset(workDir, bigCount);
    log(dataset.cached ? "dataset from the cache" : `dataset built in ${dataset.buildSeconds.toFixed(1)} s`);
    const importRows = count("import-rows");
    const importFile = ["import", "ndjson-import", "upload-load"].some((name) => selected.includes(name)) ? await prepareImportFile(cacheDir, importRows) : "";
    const rows: Row[] = [];
    if (selected.some((name) => name !== "import" && name !== "ndjson-import" && name !== "deliver")) {
      const db = pgDataset?.db ?? openDatabase(dataset.path);
      if (!pgDataset) closeDatabase = () => {
        db.$client.close();
      };
      const fixture = await fixtures(dataset, db, importFile, importRows);
      if (selected.some((name) => name in SCENARIOS)) {
        await buildApp();
        let tied: TiedDataset | undefined;
        const tiedDataset = async () => (tied ??= await prepareTiedDataset(dataset, workDir));
        const shared = { ...fixture, tiedDataset, rounds: count("rounds"), seconds: count("seconds"), connections: count("connections"), searchLoadSeconds: count("search-load-seconds") };
        let bench: WorkersBench | undefined;
        for (const [name, scenario] of Object.entries(SCENARIOS)) {
          if (!selected.includes(name)) continue;
          if (!bench || FRESH_SERVERS.includes(name)) {
            await Promise.all(servers.splice(0).map(stop));
            const [app, baseline] = await startServers(dataset.path, pgDataset?.url);
            servers.push(app, baseline);
            bench = {
              ...shared,
              app: { name: "app", origin: ORIGIN(APP_PORT()), pid: app.process.pid! },
              baseline: { name: "baseline", origin: ORIGIN(APP_PORT() + 10), pid: baseline.process.pid! },
              startApp: async (env, portOffset, databasePath = dataset.path) => ({ origin: ORIGIN(APP_PORT() + portOffset), child: await startApp(databasePath, APP_PORT() + portOffset, env) }),
            };
            log(`servers up: app ${bench.app.origin} (pid ${bench.app.pid}), baseline ${bench.baseline.origin} (pid ${bench.baseline.pid})`);
          }
          log(`${name} (load average ${loadavg()[0]!.toFixed(2)})`);
          try {
            rows.push(...(await scenario(bench)));
          } catch (error) {
            // What the servers said last is often the reason (a crash, a refused request).
            for (const [label, server] of [["app", servers[0]!], ["baseline", servers[1]!]] as const) console.error(`--- ${label} output (end) ---\n${server.output().slice(-4000)}`);
            throw error;
          }
        }
        await Promise.all(servers.splice(0).map(stop));
      }
      if (selected.includes("lookup")) {
        log(`lookup (load average ${loadavg()[0]!.toFixed(2)})`);
        rows.push(...(await emailLookup(fixture)));
      }
      if (selected.includes("positions")) {
        log(`positions (load average ${loadavg()[0]!.toFixed(2)})`);
        rows.push(...await positionScenario(dataset.path, dataset.bigWaitlistId, scaleLabel, log));
      }
      if (selected.includes("ranking")) {
        log(`ranking (load average ${loadavg()[0]!.toFixed(2)})`);
        rows.push(...await rankingScenario(dataset.path, dataset.bigWaitlistId, scaleLabel, log));
      }
      if (selected.includes("invite")) {
        log(`invite (load average ${loadavg()[0]!.toFixed(2)})`);
        rows.push(...(await inviteScenario(dataset.path, dataset.bigWaitlistId, scaleLabel, log)));
      }
      if (selected.includes("funnel")) {
        log(`funnel (load average ${loadavg()[0]!.toFixed(2)})`);
        rows.push(...await funnelScenario(dataset.path, dataset.bigWaitlistId, scaleLabel, log));
      }
    }
    if (selected.includes("import")) rows.push(...(await cliImport(workDir, importFile, importRows, log)));
    if (selected.includes("ndjson-import")) rows.push(...(await cliNdjsonImport(workDir, importFile, await prepareNdjsonImportFile(cacheDir, importRows), importRows, log)));
    if (selected.includes("deliver")) {
      log(`deliver (load average ${loadavg()[0]!.toFixed(2)})`);
      rows.push(...(await deliverScenario(workDir, log)));
    }

    console.log(`\n${formatTable(rows)}\n`);
    const missed = rows.filter((each) => each.met === false);
    console.log(`load average at the end: ${loadavg().map((each) => each.toFixed(2)).join(", ")} (1, 5, 15 min; the benchmark's own processes included)`);
    console.log(missed.length ? `targets missed: ${missed.map((each) => `${each.scenario} ${each.metric}`).join("; ")}` : "all targets met");
    log("done");
    if (options.out) {
      const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version };
      writeJson(options.out, { measuredAt: new Date().toISOString(), machine, loadAverage: loadavg(), options, dataset: { engine: options.engine, signups: dataset.bigCount, buildSeconds: dataset.buildSeconds, cached: dataset.cached }, rows });
      log(`wrote ${options.out}`);
    }
  } finally {
    // The servers first: a throw-away PostgreSQL stops with the dataset's pool.
    await Promise.all(servers.map(stop));
    await closeDatabase();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
