import { spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { createApiKey, JOIN_ROLE } from "@/lib/domain/keys/queries";
import { openWaitlist } from "../support/join-fixtures";
import { startTestServer, type TestServer } from "../support/test-server";

// Continuous backup (lib/server/continuous-backup.ts): `npm start` with LITESTREAM_REPLICA_URL runs the
// server beside Litestream, which copies the WAL to the replica every second. A machine lost mid-launch
// is the server and Litestream killed at once (SIGKILL of both process groups): the replica restored
// with `db restore` passes integrity_check and holds every join acknowledged more than
// LOSS_WINDOW_MS before the kill, the promise on /docs/production ("Continuous backup"). A stop with
// SIGTERM loses nothing: the server stops, Litestream copies the rest, then it is stopped.

test.describe.configure({ mode: "serial", timeout: 120_000 });

/** What continuous backup promises to keep: every write acknowledged longer ago than this. */
const LOSS_WINDOW_MS = 2_000;

const port = Number(process.env.E2E_PORT ?? 3100);
let server: TestServer | undefined;

test.afterEach(async () => {
  await server?.stop("SIGKILL");
  server = undefined;
});

function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: "POST", headers: { "content-length": String(Buffer.byteLength(body)), ...headers } }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** A steady stream of joins from `loops` clients until stopped: each acknowledged one (201) with when. */
function joinStream(running: TestServer, waitlistId: string, key: string, loops = 4) {
  let going = true;
  const acknowledged: { email: string; at: number }[] = [];
  const finished = Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      for (let index = 0; going; index++) {
        const email = `stream${loop}-${index}@example.com`;
        try {
          const status = await post(`${running.url}/v1/waitlist/${waitlistId}/signup`, JSON.stringify({ email }), { authorization: `Bearer ${key}`, "content-type": "application/json" });
          if (status === 201) acknowledged.push({ email, at: Date.now() });
        } catch {
          // The server was killed: the joins in flight got no answer.
          return;
        }
      }
    }),
  );
  return {
    acknowledged,
    async stop() {
      going = false;
      await finished;
    },
  };
}

async function startReplicating(name: string) {
  const replica = join(tmpdir(), `waitlist-replica-${name}-${port}`);
  // And Litestream's own record of the last run's database, beside it.
  for (const folder of [replica, join(tmpdir(), `.waitlist-${name}-${port}.db-litestream`)]) rmSync(folder, { recursive: true, force: true });
  const replicaUrl = pathToFileURL(replica).href;
  server = await startTestServer({
    portOffset: 99,
    name,
    env: { LITESTREAM_REPLICA_URL: replicaUrl, WEB_CONCURRENCY: "1", REQUEST_LOG: "off", JOINS_PER_CLIENT_PER_HOUR: "1000000", JOIN_BURST_PER_CLIENT: "1000000", RATE_LIMIT_PER_MINUTE: "1000000" },
  });
  const db = server.db();
  const waitlist = await openWaitlist({}, db);
  const key = (await createApiKey({ name: "continuous backup", roles: [JOIN_ROLE] }, db)).key;
  // Only the server (and Litestream) use the file from here on.
  db.$client.close();
  return { running: server, replicaUrl, waitlistId: waitlist.id, key };
}

/** `db restore` of the replica into a new file, as an operator runs it: its JSON answer and the restored emails. */
function restore(replicaUrl: string, name: string) {
  const restored = join(tmpdir(), `waitlist-restored-${name}-${port}.db`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(restored + suffix, { force: true });
  const cli = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "db", "restore", "--from", replicaUrl, "--to", restored, "--json"], {
    encoding: "utf8",
    env: { ...process.env, NODE_NO_WARNINGS: "1" },
  });
  expect(cli.status, cli.stderr).toBe(0);
  const answer = JSON.parse(cli.stdout) as { path: string; signups: number; seconds: number; as_of?: string; latest_failed_integrity_check?: string };
  const sqlite = new Database(restored, { readonly: true });
  try {
    return {
      answer,
      integrity: sqlite.pragma("integrity_check", { simple: true }),
      emails: new Set((sqlite.prepare("SELECT email FROM signups").all() as { email: string }[]).map((row) => row.email)),
    };
  } finally {
    sqlite.close();
  }
}

/** The process groups of Litestream and of the server (each leads its own), from `npm start`'s log line. */
const processGroups = (running: TestServer) => {
  const started = running.stdout.flatMap((line) => (line.startsWith("{") ? [JSON.parse(line) as { msg: string; litestream_pid?: number; server_pid?: number }] : [])).find((line) => line.msg === "continuous backup started");
  return [started?.litestream_pid, started?.server_pid];
};

test("the server and Litestream killed at once mid-stream of joins: the restored file is sound and holds every join acknowledged more than 2 s before", async () => {
  const { running, replicaUrl, waitlistId, key } = await startReplicating("backup-kill");
  expect(running.stdout.some((line) => line.includes(`"continuous backup: on: Litestream copies every change to ${replicaUrl} within a second (LITESTREAM_REPLICA_URL)"`))).toBe(true);
  const groups = processGroups(running);
  expect(groups.every((pid) => pid! > 0)).toBe(true);

  const stream = joinStream(running, waitlistId, key);
  const streamStarted = Date.now();
  // Several sync intervals of joins, then the kill at a moment that falls anywhere within one.
  await new Promise((resolve) => setTimeout(resolve, 4_000 + Math.random() * 1_000));
  const killedAt = Date.now();
  for (const pid of groups) process.kill(-pid!, "SIGKILL");
  await stream.stop();

  const { answer, integrity, emails } = restore(replicaUrl, "backup-kill");
  expect(integrity).toBe("ok");
  const acknowledged = stream.acknowledged;
  const lost = acknowledged.filter((join) => !emails.has(join.email));
  const keptLate = acknowledged.filter((join) => emails.has(join.email) && join.at > killedAt - LOSS_WINDOW_MS);
  const lostSpan = lost.length === 0 ? 0 : killedAt - Math.min(...lost.map((join) => join.at));
  console.log(
    `continuous backup: ${acknowledged.length} joins acknowledged in ${((killedAt - streamStarted) / 1000).toFixed(1)} s; after SIGKILL of the server and Litestream, ` +
      `${lost.length} lost, acknowledged in the last ${lostSpan} ms before the kill; restore of ${answer.signups} signups took ${answer.seconds} s` +
      (answer.latest_failed_integrity_check ? ` (the latest state failed integrity_check: ${answer.latest_failed_integrity_check}; restored as of ${answer.as_of})` : ""),
  );
  expect(acknowledged.length).toBeGreaterThan(100);
  expect(lost.filter((join) => join.at <= killedAt - LOSS_WINDOW_MS)).toEqual([]);
  // Kept: everything older than the window, and some of what came within it.
  expect(answer.signups).toBeGreaterThanOrEqual(acknowledged.length - lost.length);
  expect(keptLate.length + lost.length).toBeGreaterThan(0);
});

test("a stop with SIGTERM loses nothing: the server stops, then Litestream copies the last writes, and the exit is the server's", async () => {
  const { running, replicaUrl, waitlistId, key } = await startReplicating("backup-stop");
  const stream = joinStream(running, waitlistId, key);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  // Stopped right after the last answer, within Litestream's second: only its last copy at exit keeps them.
  await stream.stop();
  await running.stop("SIGTERM");

  const { answer, integrity, emails } = restore(replicaUrl, "backup-stop");
  expect(integrity).toBe("ok");
  expect(stream.acknowledged.length).toBeGreaterThan(50);
  const lost = stream.acknowledged.filter((join) => !emails.has(join.email));
  // Should any be lost: how many, what the restore said, and what Litestream and the server said.
  expect(lost.length, `${lost.length} of ${stream.acknowledged.length} lost; restore: ${JSON.stringify(answer)}\n${running.stderr.join("\n")}`).toBe(0);
  // Litestream copied them in its own time, not in a final pass that 0.3.13 may end in a panic.
  expect(running.stderr.filter((line) => line.startsWith("panic:"))).toEqual([]);
  // The server's own exit code, whatever Litestream says as it stops.
  expect(running.process.exitCode, running.stderr.filter((line) => !line.includes("wal segment")).join("\n")).toBe(0);
});
