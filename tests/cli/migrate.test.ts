import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliSandbox, type CliSandbox } from "./run-cli";

let cli: CliSandbox;
beforeEach(() => (cli = cliSandbox()));
afterEach(() => cli.remove());

const MIGRATIONS = (JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: unknown[] }).entries.length;

function journalRows(): number {
  const db = new Database(cli.databasePath, { readonly: true });
  try {
    return db.prepare("SELECT count(*) FROM __drizzle_migrations").pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Whether process `pid` holds `path` open (Linux: /proc/<pid>/fd). */
function holdsOpen(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false; // exited already
  }
}

describe("db migrate from several processes at once", () => {
  it("four concurrent db migrate on a new file all succeed, and the migrations are applied once", async () => {
    const runs = [1, 2, 3, 4].map(() => cli.start("db", "migrate", "--json"));
    for (const result of await Promise.all(runs.map((run) => run.result))) {
      expect(result).toMatchObject({ status: 0, stderr: "" });
      expect(JSON.parse(result.stdout)).toEqual({ database: cli.databasePath, migrated: true });
    }
    expect(journalRows()).toBe(MIGRATIONS);
  });

  // Deterministic version of the race above: what the first process leaves for an instant (WAL,
  // drizzle's journal still empty, the write lock held) while the others open the file. Reading the
  // journal before taking the lock, they would all decide to migrate and fail on "table already exists".
  it.runIf(existsSync("/proc/self/fd"))("processes that open a new file while another migrates it wait, then find the migrations applied", async () => {
    const first = new Database(cli.databasePath);
    first.pragma("journal_mode = WAL");
    first.exec(`CREATE TABLE IF NOT EXISTS "__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
    first.exec("BEGIN IMMEDIATE");
    const runs = [1, 2, 3, 4].map(() => cli.start("db", "migrate", "--json"));
    // Hold the lock until every process has the file open (then it is waiting for the lock), but
    // for less than their 5-second busy timeout.
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline && !runs.every((run) => holdsOpen(run.pid, cli.databasePath))) await sleep(20);
    await sleep(200);
    first.exec("ROLLBACK");
    first.close();
    for (const result of await Promise.all(runs.map((run) => run.result))) expect(result).toMatchObject({ status: 0, stderr: "" });
    expect(journalRows()).toBe(MIGRATIONS);
  });
});
