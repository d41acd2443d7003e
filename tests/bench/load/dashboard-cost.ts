// What one signed-in browser session with a script costs everyone else (a script, not part of npm test):
//   npm run build && npx tsx tests/bench/load/dashboard-cost.ts [--signups 200000] [--seconds 30] [--loops 20] [--port 3700] [--server-log file]
// Starts the production server (lib/server) on a waitlist of `signups` signups, measures /v1 latency
// with autocannon (4 connections, two cheap endpoints) alone, then again while an "attacker"
// (./dashboard-attacker.ts, a process of its own) runs `loops` concurrent loops of full CSV exports and
// searches for a random `q` on a random deep page (`sort=email&page=…`). Prints p50/p99 of both
// phases and the attacker's statuses (200 served, 429 refused) as JSON; --server-log keeps the
// server's request log. Results and how to read them: README, "What one dashboard session costs".
import { spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createSession } from "@/lib/domain/sessions";
import { SESSION_COOKIE } from "@/lib/dashboard/session-cookie";
import { freshDatabasePath, startTestServer } from "@/tests/e2e/support/test-server";
import { autocannon, type AutocannonRequest } from "./autocannon";

const { values: options } = parseArgs({
  options: {
    signups: { type: "string", default: "200000" },
    seconds: { type: "string", default: "30" },
    loops: { type: "string", default: "20" },
    port: { type: "string", default: "3700" },
    "server-log": { type: "string" },
  },
});

/** A copy of a database holding one waitlist of `count` signups (tests/bench/seed-large.ts), seeded once per size and cached. */
async function seededCopy(count: number): Promise<string> {
  const cached = join(tmpdir(), `waitlist-dashboard-cost-${count}.db`);
  if (!existsSync(cached)) {
    const seed = spawn(process.execPath, ["--import", "tsx", "tests/bench/seed-large.ts", String(count)], {
      env: { ...process.env, DATABASE_PATH: `${cached}.partial` },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const [code] = (await once(seed, "exit")) as [number | null];
    if (code !== 0) throw new Error(`seeding ${count} signups failed`);
    copyFileSync(`${cached}.partial`, cached);
    rmSync(`${cached}.partial`);
  }
  const path = freshDatabasePath("dashboard-cost");
  copyFileSync(cached, path);
  return path;
}

const TIMEOUT_SECONDS = 10;

/** autocannon's latency covers answered requests only: a request still waiting after TIMEOUT_SECONDS counts as that long. */
async function measureApi(url: string, requests: AutocannonRequest[], seconds: number) {
  const result = await autocannon({ url, connections: 4, duration: seconds, requests, timeout: TIMEOUT_SECONDS });
  const timedOut = result.timeouts / Math.max(1, result.requests.total + result.timeouts);
  const atLeastTimeout = `>= ${TIMEOUT_SECONDS * 1000} (timed out)`;
  return {
    answered: result.requests.total,
    non_2xx: result.non2xx,
    timeouts: result.timeouts,
    latency_ms: {
      p50: timedOut > 0.5 ? atLeastTimeout : result.latency.p50,
      p99: timedOut > 0.01 ? atLeastTimeout : result.latency.p99,
      max: result.timeouts > 0 ? atLeastTimeout : result.latency.max,
    },
  };
}

async function main() {
  const seconds = Number(options.seconds);
  const databasePath = await seededCopy(Number(options.signups));
  const server = await startTestServer({
    portOffset: 0,
    port: Number(options.port),
    name: "dashboard-cost",
    databasePath,
    // One key serves every /v1 connection: its own per-minute limit is not what is measured.
    env: { RATE_LIMIT_PER_MINUTE: "1000000000" },
  });
  const db = server.db();
  const { id: waitlistId } = db.$client.prepare("SELECT id FROM waitlists LIMIT 1").get() as { id: string };
  const key = await createApiKey({ name: "measured client", roles: ["waitlist:view"] }, db);
  const attackerKey = await createApiKey({ name: "attacker", roles: ["waitlist:view"] }, db);
  const cookie = `${SESSION_COOKIE}=${(await createSession(attackerKey.id, db)).token}`;
  const api = { Authorization: `Bearer ${key.key}` };
  const requests: AutocannonRequest[] = [
    { path: `/v1/waitlist/${waitlistId}`, headers: api },
    { path: `/v1/waitlist/${waitlistId}/signup?limit=100`, headers: api },
  ];

  // Warm-up: route modules load and compile on first use.
  await autocannon({ url: server.url, connections: 4, duration: 3, requests });
  await (await fetch(`${server.url}/waitlists/${waitlistId}?email_contains=warm`, { headers: { cookie } })).arrayBuffer();

  const alone = await measureApi(server.url, requests, seconds);
  const attacker = spawn(process.execPath, ["--import", "tsx", "tests/bench/load/dashboard-attacker.ts", server.url, cookie, waitlistId, options.loops], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let attackerOut = "";
  attacker.stdout!.on("data", (chunk: Buffer) => (attackerOut += chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const underAttack = await measureApi(server.url, requests, seconds);
  attacker.kill("SIGTERM");
  await once(attacker, "exit");
  await server.stop();
  if (options["server-log"]) writeFileSync(options["server-log"], server.stdout.join("\n") + "\n");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(databasePath + suffix, { force: true });

  console.log(
    JSON.stringify(
      {
        signups: Number(options.signups),
        seconds,
        attacker_loops: Number(options.loops),
        v1_alone: alone,
        v1_under_attack: underAttack,
        attacker_statuses: JSON.parse(attackerOut.trim() || "{}") as unknown,
      },
      null,
      2,
    ),
  );
}

void main();
