// What the production server (lib/server: request ids, client address, one JSON log line per
// request) costs compared with a bare `next start` on the same build and database (a script):
//   npm run build && npx tsx tests/bench/load/logging-overhead.ts [firstPort=3680] [rounds=3] [seconds=10]
// Three servers: `next start`, lib/server with REQUEST_LOG=off, lib/server logging to a file.
// Rounds alternate between them so that drift on a shared machine hits all three alike.
import { spawn, type ChildProcess } from "node:child_process";
import { openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "@/db/client";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { makeSignups } from "@/tests/e2e/support/api-fixtures";
import { insertSignups } from "@/tests/support/insert-signups";
import { autocannon } from "./autocannon";

const [firstPortText = "3680", roundsText = "3", secondsText = "10"] = process.argv.slice(2);
const firstPort = Number(firstPortText);

async function waitUntilUp(url: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(`${url}/v1/openapi.json`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not start`);
}

async function main() {
  const databasePath = join(tmpdir(), `logging-overhead-${firstPort}.db`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(databasePath + suffix, { force: true });
  const db = openDatabase(databasePath);
  const waitlist = await createWaitlist({ name: "Overhead", website: "https://example.com" }, db);
  insertSignups(waitlist.id, makeSignups(1000, "o").map((s) => ({ ...s, customInputs: "[]" })), db);
  const key = (await createApiKey({ name: "overhead", roles: ["waitlist:view"] }, db)).key;
  db.$client.close();

  const env = { ...process.env, DATABASE_PATH: databasePath, NEXT_TELEMETRY_DISABLED: "1", RATE_LIMIT_PER_MINUTE: "100000000", HOST: "127.0.0.1" };
  const logFile = join(tmpdir(), `logging-overhead-${firstPort}.log`);
  const variants: { name: string; port: number; child?: ChildProcess; start: (port: number) => ChildProcess }[] = [
    { name: "next start", port: firstPort, start: (port) => spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)], { env, stdio: "ignore" }) },
    {
      name: "lib/server, log off",
      port: firstPort + 1,
      start: (port) => spawn(process.execPath, ["--import", "tsx", "lib/server/main.ts"], { env: { ...env, PORT: String(port), REQUEST_LOG: "off" }, stdio: "ignore" }),
    },
    {
      name: "lib/server, log to file",
      port: firstPort + 2,
      start: (port) => spawn(process.execPath, ["--import", "tsx", "lib/server/main.ts"], { env: { ...env, PORT: String(port) }, stdio: ["ignore", openSync(logFile, "w"), "ignore"] }),
    },
  ];
  for (const variant of variants) {
    variant.child = variant.start(variant.port);
    await waitUntilUp(`http://127.0.0.1:${variant.port}`);
  }
  const paths = [`/v1/waitlist/${waitlist.id}`, `/v1/waitlist/${waitlist.id}/signup?limit=100`];
  const results = new Map<string, { rps: number[]; p50: number[]; p99: number[] }>();
  try {
    for (const variant of variants) {
      // Warm-up: route modules load on first use.
      await autocannon({ url: `http://127.0.0.1:${variant.port}`, connections: 8, duration: 3, requests: paths.map((path) => ({ path, headers: { Authorization: `Bearer ${key}` } })) });
    }
    for (let round = 0; round < Number(roundsText); round++) {
      for (const variant of round % 2 ? [...variants].reverse() : variants) {
        const result = await autocannon({
          url: `http://127.0.0.1:${variant.port}`,
          connections: 16,
          duration: Number(secondsText),
          requests: paths.map((path) => ({ path, headers: { Authorization: `Bearer ${key}` } })),
        });
        if (result.non2xx || result.errors) throw new Error(`${variant.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        const entry = results.get(variant.name) ?? { rps: [], p50: [], p99: [] };
        entry.rps.push(result.requests.average);
        entry.p50.push(result.latency.p50);
        entry.p99.push(result.latency.p99);
        results.set(variant.name, entry);
      }
    }
  } finally {
    for (const variant of variants) variant.child?.kill("SIGTERM");
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const summary = Object.fromEntries(
    [...results].map(([name, { rps, p50, p99 }]) => [name, { requests_per_second: median(rps), p50_ms: median(p50), p99_ms: median(p99), rounds_rps: rps }]),
  );
  console.log(JSON.stringify(summary, null, 2));
  rmSync(logFile, { force: true });
}

void main();
