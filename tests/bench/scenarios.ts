import type { AppDatabase } from "@/db/client";
import type { SignupFilter } from "@/lib/domain/signups/filter";
import { download, load, mean, median, type Download } from "./measure";
import { withPeakRss } from "./processes";
import { row, type Row } from "./report";

const WARM_UP_SECONDS = 2;

export interface Server {
  name: "app" | "baseline";
  origin: string;
  pid: number;
}

/** The dataset and what the scenarios look for in it, with or without servers. */
export interface Fixture {
  databasePath: string;
  apiHeaders: Record<string, string>;
  cookieHeaders: Record<string, string>;
  bigWaitlistId: string;
  /** "1M", "10M": the big waitlist's size in labels. */
  scaleLabel: string;
  /** The target for a dashboard view at this size. */
  pageTargetMs: number;
  /** A waitlist of a few signups: warms up the bulk routes without growing the heap. */
  smallWaitlistId: string;
  /** The email of a signup in the middle of the big waitlist. */
  sampleEmail: string;
  /** The dataset's signups end before this instant. */
  spanEnd: number;
  /** A keyset cursor 90 % into the verified signups (computed on first use: a long walk on a big list). */
  deepCursor: () => Promise<string>;
  /** Text the dashboard page must contain (its newest row's email), so a sign-in or error page never passes. */
  pageMustContain: string;
  /** The newest signup of the big waitlist under a filter, and how many there are ("10,000+" past the search cap), by the query layer. */
  expect: (filter: SignupFilter) => Promise<{ email: string; total: string }>;
  /** Adds a signup to the big waitlist (as a visitor signing up would) and returns its email. */
  writeSignup: () => Promise<string>;
  /** The bench's own connection to the database (SQLite's file or PostgreSQL's pool), open for the whole run. */
  db: AppDatabase;
  pageRequests: number;
  log: (line: string) => void;
  /** A session of a waitlist:admin key (the dashboard's writes). */
  adminCookieHeaders: Record<string, string>;
  /** A key with the role waitlist:admin (the status actions). */
  adminApiHeaders: Record<string, string>;
  /** Creates an empty waitlist and returns its id. */
  newWaitlist: () => Promise<string>;
  /** The import CSV (prepareImportFile) of `importRows` rows; only scenarios that need it call it. */
  importFile: () => string;
  importRows: number;
}

export interface Bench extends Fixture {
  app: Server;
  baseline: Server;
  rounds: number;
  seconds: number;
  connections: number;
  /** How long /v1 is measured with and without the dashboard loops of search-load.ts. */
  searchLoadSeconds: number;
}

/** Round 1 runs the app first, round 2 the baseline first, and so on: drift on a shared machine hits both. */
function* alternate(bench: Bench): Generator<Server> {
  for (let round = 0; round < bench.rounds; round++) {
    const pair = [bench.app, bench.baseline];
    yield* round % 2 ? pair.reverse() : pair;
  }
}

function ok(download: Download, what: string): Download {
  if (download.status !== 200) throw new Error(`${what}: status ${download.status}`);
  return download;
}

/** Both servers must send the same bytes for `path` before their speed is compared. */
async function sameBody(bench: Bench, path: string, headers: Record<string, string>) {
  const [app, baseline] = [ok(await download(bench.app.origin + path, headers), `app ${path}`), ok(await download(bench.baseline.origin + path, headers), `baseline ${path}`)];
  if (app.sha256 !== baseline.sha256) throw new Error(`${path}: app and baseline bodies differ (${app.bytes} vs ${baseline.bytes} bytes)`);
  return { app, baseline };
}

/** Requests/s and p99 under fixed concurrency, alternating app and baseline. */
async function loadScenario(bench: Bench, scenario: string, path: string, ratioAtLeast = 0.5): Promise<Row[]> {
  const { app } = await sameBody(bench, path, bench.apiHeaders);
  bench.log(`${scenario}: ${app.bytes} bytes per response, identical on both`);
  // Warm-up (not counted): lazily loaded route code, JIT, statement caches.
  for (const server of [bench.app, bench.baseline]) await load(server.origin + path, bench.apiHeaders, { connections: bench.connections, seconds: WARM_UP_SECONDS });
  const results: Record<Server["name"], { requestsPerSecond: number; p99Ms: number }[]> = { app: [], baseline: [] };
  for (const server of alternate(bench)) {
    const result = await load(server.origin + path, bench.apiHeaders, { connections: bench.connections, seconds: bench.seconds });
    bench.log(`  ${server.name}: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms`);
    results[server.name].push(result);
  }
  const average = (name: Server["name"], key: "requestsPerSecond" | "p99Ms") => mean(results[name].map((result) => result[key]));
  return [
    row(scenario, "throughput", "req/s", average("app", "requestsPerSecond"), average("baseline", "requestsPerSecond"), { ratioAtLeast }),
    row(scenario, "p99 latency", "ms", average("app", "p99Ms"), average("baseline", "p99Ms")),
  ];
}

export function singleWaitlist(bench: Bench) {
  return loadScenario(bench, "GET /v1/waitlist/{id}", `/v1/waitlist/${bench.bigWaitlistId}`);
}

export function firstPage(bench: Bench) {
  // Issue 13's target for the first page of signups: 0.6 of the bare baseline.
  return loadScenario(bench, "signups page 1 (limit=100, verified)", `/v1/waitlist/${bench.bigWaitlistId}/signup?limit=100&verified=true`, 0.6);
}

export async function deepPage(bench: Bench) {
  return loadScenario(bench, "signups deep page (90% in)", `/v1/waitlist/${bench.bigWaitlistId}/signup?limit=100&verified=true&cursor=${await bench.deepCursor()}`);
}

/**
 * A long download, timed and with the server's memory watched; both servers' bytes must match.
 * The servers are fresh: one small download through the same route first, so that loading the
 * route's code does not count as growth.
 */
async function bulkScenario(bench: Bench, scenario: string, pathOf: (waitlistId: string) => string, headers: Record<string, string>, rssTarget: number): Promise<Row[]> {
  await sameBody(bench, pathOf(bench.smallWaitlistId), headers);
  const path = pathOf(bench.bigWaitlistId);
  const runs: Record<Server["name"], { seconds: number; mbPerSecond: number; growthMb: number; sha256: string }[]> = { app: [], baseline: [] };
  for (const server of alternate(bench)) {
    const { result, beforeMb, peakMb } = await withPeakRss(server.pid, () => download(server.origin + path, headers));
    ok(result, `${server.name} ${path}`);
    const seconds = result.lastByteMs / 1000;
    const run = { seconds, mbPerSecond: result.bytes / 1e6 / seconds, growthMb: peakMb - beforeMb, sha256: result.sha256 };
    bench.log(`  ${server.name}: ${(result.bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s, RSS ${beforeMb.toFixed(0)} → peak ${peakMb.toFixed(0)} MB`);
    runs[server.name].push(run);
  }
  const hashes = new Set([...runs.app, ...runs.baseline].map((run) => run.sha256));
  if (hashes.size !== 1) throw new Error(`${scenario}: app and baseline bodies differ`);
  const average = (name: Server["name"], key: "seconds" | "mbPerSecond") => mean(runs[name].map((run) => run[key]));
  const peak = (name: Server["name"]) => Math.max(...runs[name].map((run) => run.growthMb));
  return [
    row(scenario, "time", "s", average("app", "seconds"), average("baseline", "seconds")),
    row(scenario, "throughput", "MB/s", average("app", "mbPerSecond"), average("baseline", "mbPerSecond"), scenario.startsWith("full stream") ? { ratioAtLeast: 0.7 } : undefined),
    row(scenario, "peak RSS growth", "MB", peak("app"), peak("baseline"), { appBelow: rssTarget }),
  ];
}

export function fullStream(bench: Bench) {
  bench.log("full stream of every signup");
  return bulkScenario(bench, "full stream (all signups)", (id) => `/v1/waitlist/${id}/signup`, bench.apiHeaders, 100);
}

export function csvExport(bench: Bench) {
  bench.log("CSV export of the verified signups");
  return bulkScenario(bench, "CSV export (verified)", (id) => `/waitlists/${id}/export?verified=true`, bench.cookieHeaders, 100);
}

async function pageMustShow(bench: Bench, path: string, text: string) {
  for (const server of [bench.app, bench.baseline]) {
    const html = await (await fetch(server.origin + path, { headers: bench.cookieHeaders, redirect: "manual" })).text();
    if (!html.includes(text)) throw new Error(`${server.name} ${path}: the page lacks its first row (${text})`);
  }
}

/**
 * The signed-in dashboard page with a filter: sequential requests, app and baseline interleaved
 * one by one. `live`: a new signup is written before each request, as on a list that is filling
 * up, so nothing remembered from the previous view is still valid; and the session is an admin's,
 * the founder watching the launch, whose page has more to read (the launch checklist: 300 ms at 1M
 * until 2026-11-29, unseen while both scenarios signed in as a viewer).
 */
async function dashboardPage(bench: Bench, live: boolean): Promise<Row[]> {
  const path = `/waitlists/${bench.bigWaitlistId}?verified=true`;
  const scenario = live ? "dashboard page as an admin, list filling up" : "dashboard page (1M, verified)";
  const headers = live ? bench.adminCookieHeaders : bench.cookieHeaders;
  bench.log(`${scenario}: ${path}`);
  await pageMustShow(bench, path, live ? await bench.writeSignup() : bench.pageMustContain);
  const timings: Record<Server["name"], Download[]> = { app: [], baseline: [] };
  for (let index = -2; index < bench.pageRequests; index++) {
    for (const server of index % 2 ? [bench.app, bench.baseline] : [bench.baseline, bench.app]) {
      if (live) await bench.writeSignup();
      const result = ok(await download(server.origin + path, headers), `${server.name} ${path}`);
      if (index >= 0) timings[server.name].push(result); // the first two are warm-up
    }
  }
  const at = (name: Server["name"], key: "firstByteMs" | "lastByteMs") => median(timings[name].map((result) => result[key]));
  bench.log(`  app: first byte ${at("app", "firstByteMs").toFixed(0)} ms, last byte ${at("app", "lastByteMs").toFixed(0)} ms, ${timings.app[0]!.bytes} bytes`);
  bench.log(`  baseline: first byte ${at("baseline", "firstByteMs").toFixed(0)} ms, last byte ${at("baseline", "lastByteMs").toFixed(0)} ms`);
  return [
    row(scenario, "median time to first byte", "ms", at("app", "firstByteMs"), at("baseline", "firstByteMs")),
    row(scenario, "median time to last byte", "ms", at("app", "lastByteMs"), at("baseline", "lastByteMs"), { appBelow: 150 }),
  ];
}

export const staticPage = (bench: Bench) => dashboardPage(bench, false);
export const livePage = (bench: Bench) => dashboardPage(bench, true);
