import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { openDatabase, type AppDatabase } from "@/db/client";
import { createApiKey } from "@/lib/domain/keys/queries";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups, makeSignups } from "../support/api-fixtures";
import { freshDatabasePath, startTestServer, type TestServer } from "../support/test-server";

// Crash safety: a CLI import killed with SIGKILL inside its write transaction leaves a sound
// database holding none of that import; a server killed under load restarts on the same file and
// serves the same data; a backup taken under load (with a writer) is sound and consistent.

test.describe.configure({ timeout: 180_000 });

function insertMadeSignups(db: AppDatabase, waitlistId: string, count: number, tag: string) {
  return insertSignups(waitlistId, makeSignups(count, tag), db);
}

function countSignups(path: string, waitlistId: string): number {
  const sqlite = new Database(path, { readonly: true });
  try {
    return (sqlite.prepare("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?").get(waitlistId) as { n: number }).n;
  } finally {
    sqlite.close();
  }
}

function integrity(path: string): unknown {
  const sqlite = new Database(path);
  try {
    return sqlite.pragma("integrity_check", { simple: true });
  } finally {
    sqlite.close();
  }
}

/** True while another connection holds the write lock (the import's transaction). */
function writeLocked(path: string): boolean {
  const probe = new Database(path, { timeout: 0 });
  try {
    probe.exec("BEGIN IMMEDIATE");
    probe.exec("ROLLBACK");
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_BUSY") return true;
    throw error;
  } finally {
    probe.close();
  }
}

async function writeCsv(path: string, rows: number) {
  const out = createWriteStream(path);
  out.write("email,verified,referral\n");
  for (let i = 0; i < rows; i++) if (!out.write(`crash${i}@example.com,${i % 2 === 0},${i % 3 === 0}\n`)) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

test("SIGKILL of the CLI inside a 300,000-row import: integrity ok, none of it imported; a rerun imports all of it", async () => {
  const databasePath = freshDatabasePath("crash-import");
  const db = openDatabase(databasePath);
  const waitlist = await createWaitlist({ name: "Crash import", website: "https://example.com" }, db);
  await insertMadeSignups(db, waitlist.id, 1000, "before");
  db.$client.close();
  const csv = join(tmpdir(), `crash-import-${process.env.E2E_PORT ?? 3100}.csv`);
  await writeCsv(csv, 300_000);
  const cli = (wait: boolean) =>
    spawn(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "signups", "import", "--waitlist", waitlist.id, csv, "--json"], {
      env: { ...process.env, DATABASE_PATH: databasePath, NODE_NO_WARNINGS: "1" },
      stdio: wait ? ["ignore", "pipe", "pipe"] : "ignore",
    });

  const child = cli(false);
  const exited = once(child, "exit");
  // Kill once the import holds the write lock and has written a good part into the WAL.
  const deadline = Date.now() + 60_000;
  let walBytes = 0;
  while (!(writeLocked(databasePath) && (walBytes = statSync(`${databasePath}-wal`).size) > 4 * 1024 * 1024)) {
    expect(child.exitCode, "the import finished before it could be killed").toBeNull();
    expect(Date.now()).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGKILL");
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: null, signal: "SIGKILL" });
  console.log(`crash: killed the import inside its transaction with ${(walBytes / 1024 / 1024).toFixed(1)} MB in the WAL`);

  expect(integrity(databasePath)).toBe("ok");
  expect(countSignups(databasePath, waitlist.id)).toBe(1000);

  const rerun = cli(true);
  let stdout = "";
  rerun.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const [rerunCode] = await once(rerun, "exit");
  expect(rerunCode).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ imported: 300_000, skipped_duplicates: 0 });
  expect(integrity(databasePath)).toBe("ok");
  expect(countSignups(databasePath, waitlist.id)).toBe(301_000);
  rmSync(csv, { force: true });
});

/** Requests from `workers` loops until stopped; failures after the stop (the kill) are expected. */
function load(server: TestServer, urls: string[], headers: Record<string, string>, workers = 8) {
  let running = true;
  const counts = { ok: 0, failed: 0, serverErrors: 0 };
  const loops = Array.from({ length: workers }, async (_, worker) => {
    for (let i = worker; running; i++) {
      try {
        const response = await fetch(server.url + urls[i % urls.length], { headers });
        await response.arrayBuffer();
        if (response.status >= 500) counts.serverErrors++;
        else counts.ok++;
      } catch {
        counts.failed++;
      }
    }
  });
  return {
    counts,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function snapshot(server: TestServer, key: string, waitlistId: string): Promise<string> {
  const hash = createHash("sha256");
  for (const url of ["/v1/waitlist", `/v1/waitlist/${waitlistId}`, `/v1/waitlist/${waitlistId}/signup`, `/v1/waitlist/${waitlistId}/signup?verified=true&limit=777`]) {
    const response = await fetch(server.url + url, { headers: { Authorization: `Bearer ${key}` } });
    expect(response.status, url).toBe(200);
    hash.update(await response.text());
  }
  return hash.digest("hex");
}

test("a server killed with SIGKILL under load restarts on the same file and serves the same data", async () => {
  let server = await startTestServer({ portOffset: 4, name: "crash-server", env: { REQUEST_LOG: "off", RATE_LIMIT_PER_MINUTE: "1000000" } });
  const db = server.db();
  const waitlist = await createWaitlist({ name: "Crash server", website: "https://example.com" }, db);
  await insertMadeSignups(db, waitlist.id, 20_000, "served");
  const key = (await createApiKey({ name: "crash", roles: ["waitlist:view"] }, db)).key;
  const before = await snapshot(server, key, waitlist.id);

  const traffic = load(server, [`/v1/waitlist/${waitlist.id}/signup`, `/v1/waitlist/${waitlist.id}/signup?limit=100`, "/v1/waitlist", "/"], { Authorization: `Bearer ${key}` });
  // Killed in the middle of the load, once it has been served for a while (how long that takes
  // depends on how busy the machine is).
  await expect.poll(() => traffic.counts.ok, { timeout: 30_000 }).toBeGreaterThan(20);
  await server.stop("SIGKILL");
  await traffic.stop();
  expect(traffic.counts.serverErrors).toBe(0);
  expect(integrity(server.databasePath)).toBe("ok");

  server = await startTestServer({ portOffset: 4, name: "crash-server", databasePath: server.databasePath, env: { REQUEST_LOG: "off" } });
  try {
    expect(await snapshot(server, key, waitlist.id)).toBe(before);
  } finally {
    await server.stop();
  }
});

test("a backup taken with the CLI under load, with a writer, opens, passes integrity_check and holds the same rows", async () => {
  const server = await startTestServer({ portOffset: 5, name: "backup", env: { REQUEST_LOG: "off", RATE_LIMIT_PER_MINUTE: "1000000" } });
  const backupPath = join(tmpdir(), `waitlist-backup-copy-${process.env.E2E_PORT ?? 3100}.db`);
  rmSync(backupPath, { force: true });
  try {
    const db = server.db();
    const served = await createWaitlist({ name: "Backed up", website: "https://example.com" }, db);
    const written = await createWaitlist({ name: "Written during the backup", website: "https://example.com" }, db);
    await insertMadeSignups(db, served.id, 50_000, "backup");
    const key = (await createApiKey({ name: "backup", roles: ["waitlist:view"] }, db)).key;

    const traffic = load(server, [`/v1/waitlist/${served.id}/signup`, `/v1/waitlist/${served.id}/signup?limit=500`, "/v1/waitlist"], { Authorization: `Bearer ${key}` }, 4);
    // A writer in another process's connection: small transactions all along the backup.
    let writing = true;
    let batches = 0;
    const writer = (async () => {
      while (writing) {
        await insertMadeSignups(db, written.id, 50, `w${batches++}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Asynchronously, so that the writer and the load go on while the CLI copies.
    const cli = spawn(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "db", "backup", backupPath, "--json"], {
      env: { ...process.env, DATABASE_PATH: server.databasePath, NODE_NO_WARNINGS: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const backup = { stdout: "", stderr: "", status: null as number | null };
    cli.stdout!.on("data", (chunk: Buffer) => (backup.stdout += chunk.toString()));
    cli.stderr!.on("data", (chunk: Buffer) => (backup.stderr += chunk.toString()));
    [backup.status] = (await once(cli, "exit")) as [number | null];
    await new Promise((resolve) => setTimeout(resolve, 300));
    writing = false;
    await writer;
    await traffic.stop();
    expect(backup.status, backup.stderr).toBe(0);
    expect(traffic.counts.serverErrors).toBe(0);
    expect(traffic.counts.failed).toBe(0);
    const result = JSON.parse(backup.stdout) as { path: string; signups: number };
    expect(result.path).toBe(backupPath);

    expect(integrity(backupPath)).toBe("ok");
    const copy = new Database(backupPath, { readonly: true });
    const live = new Database(server.databasePath, { readonly: true });
    try {
      const rows = (sqlite: Database.Database, waitlistId: string) =>
        sqlite.prepare("SELECT id, email, verified, referral, custom_inputs, created_at FROM signups WHERE waitlist_id = ? ORDER BY id").all(waitlistId);
      // The served list is the same; of the list written meanwhile, the copy holds a prefix:
      // every batch committed before the backup's snapshot, and nothing half-written.
      expect(rows(copy, served.id)).toEqual(rows(live, served.id));
      const copied = rows(copy, written.id);
      const all = rows(live, written.id);
      expect(copied.length % 50).toBe(0);
      expect(copied.length).toBeGreaterThan(0);
      expect(copied.length).toBeLessThan(all.length);
      expect(copied).toEqual(all.slice(0, copied.length));
      expect(result.signups).toBe(50_000 + copied.length);
      console.log(`backup: ${result.signups} signups copied while ${batches} write batches and ${traffic.counts.ok} API requests ran`);
    } finally {
      copy.close();
      live.close();
    }
  } finally {
    await server.stop();
    rmSync(backupPath, { force: true });
  }
});
