import { spawnSync } from "node:child_process";
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "../insert-signups";
import { handOver, unprivilegedUser, type TestUser } from "../storage-faults";
import type { CliResult } from "./run-cli";

// `npm start` and the CLI on a database they cannot use (a damaged file, a read-only folder, pending
// migrations on a read-only file) stop with one line that names the file, says what is wrong and what
// to do, and exit 1, without a stack trace; `db check` finds damage in the middle of the file, which
// opening it does not.

const RESTORE = 'restore it from a backup (`npm run cli -- db backup` makes them; see the README, "Backups and restore")';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function folder(): string {
  dir = mkdtempSync(join(tmpdir(), "waitlist-damaged-"));
  // The unprivileged user (see storage-faults.ts) must get through it.
  chmodSync(dir, 0o755);
  return dir;
}

function run(args: string[], databasePath: string, user?: TestUser): CliResult {
  const result = spawnSync(process.execPath, ["--import", "tsx", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_PATH: databasePath, NODE_NO_WARNINGS: "1", PORT: String(Number(process.env.E2E_PORT ?? 3100) + 33), HOST: "127.0.0.1" },
    timeout: 30_000,
    ...user,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const start = (databasePath: string, user?: TestUser) => run(["lib/server/main.ts"], databasePath, user);
const cli = (databasePath: string, ...args: string[]) => run(["lib/cli/main.ts", ...args], databasePath);
const cliAs = (user: TestUser | undefined, databasePath: string, ...args: string[]) => run(["lib/cli/main.ts", ...args], databasePath, user);

/** A migrated database with a waitlist of `signups` signups, checkpointed into the file and closed. */
function soundDatabase(path: string, signups = 0): void {
  const db = openDatabase(path);
  const { id } = createWaitlist({ name: "Damaged", website: "https://example.com" }, db);
  insertSignups(
    id,
    Array.from({ length: signups }, (_, index) => ({ email: `person${index}@example.com`, verified: true, referral: false, customInputs: "[]", createdAt: Date.now() - index * 1000 })),
    db,
  );
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  db.$client.close();
}

/**
 * Exit code 1, nothing on stdout and `line` alone on stderr. A stack trace is counted, not shown: the
 * test runner would read its frames as its own.
 */
function expectOneLine(result: CliResult, line: string): void {
  const lines = result.stderr.trimEnd().split("\n");
  expect({ status: result.status, stdout: result.stdout, first: lines[0], lines: lines.length, stackFrames: lines.filter((each) => /^\s+at /.test(each)).length }).toEqual({
    status: 1,
    stdout: "",
    first: line,
    lines: 1,
    stackFrames: 0,
  });
}

/** Overwrites `length` bytes at `offset` with garbage. */
function damage(path: string, offset: number, length: number): void {
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, offset);
  closeSync(fd);
}

describe("a damaged database", () => {
  it("not a database at all: npm start and the CLI stop with one line naming the file and the cure", () => {
    const path = join(folder(), "waitlist.db");
    writeFileSync(path, Buffer.alloc(64 * 1024, 0x5a));
    const line = `error: ${path} is not a SQLite database, or its first page is damaged: ${RESTORE}, or set DATABASE_PATH to the right file`;
    for (const result of [start(path), cli(path, "waitlists", "list"), cli(path, "db", "check"), cli(path, "db", "migrate")]) expectOneLine(result, line);
  });

  it("a corrupt schema page: npm start and the CLI stop with one line naming the file and the cure", () => {
    const path = join(folder(), "waitlist.db");
    soundDatabase(path);
    damage(path, 100, 3996);
    const line = `error: ${path} is damaged (SQLite found a corrupt page): ${RESTORE}`;
    for (const result of [start(path), cli(path, "waitlists", "list"), cli(path, "db", "check")]) expectOneLine(result, line);
  });

  it("damage in the middle of the file: db check (and db migrate) find it and name it; a sound file passes", () => {
    const path = join(folder(), "waitlist.db");
    soundDatabase(path, 20_000);
    const sound = cli(path, "db", "check", "--json");
    expect(sound.status, sound.stderr).toBe(0);
    expect(JSON.parse(sound.stdout)).toEqual({ database: path, ok: true });
    const pages = statSync(path).size / 4096;
    const page = Math.floor(pages / 2);
    damage(path, page * 4096, 4096);
    // Opening it meets no damage: only a read of that page would.
    expect(cli(path, "waitlists", "list", "--json").status).toBe(0);
    for (const result of [cli(path, "db", "check"), cli(path, "db", "migrate")]) {
      const line = result.stderr.trimEnd();
      expect(line).toMatch(new RegExp(`^error: ${path} is damaged \\(PRAGMA quick_check: .*\\bpage ${page + 1}\\b.*\\): `));
      expectOneLine(result, `${line.slice(0, line.indexOf("): ") + 3)}${RESTORE}`);
    }
  });

  it("a missing file: db check says so, and creates nothing", () => {
    const path = join(folder(), "missing.db");
    expectOneLine(
      cli(path, "db", "check"),
      `error: ${path} cannot be opened: check that it exists (or that its folder ${dir} can be written, to create it) and that the user running the app may read and write both`,
    );
    expect(() => statSync(path)).toThrow();
  });
});

describe("a database that cannot be written", () => {
  it("in a read-only folder without its -wal and -shm: npm start stops with one line naming the folder", () => {
    const path = join(folder(), "waitlist.db");
    soundDatabase(path);
    handOver(path, 0o644);
    // The folder stays root's (or is made read-only for this user).
    if (!unprivilegedUser) chmodSync(dir, 0o555);
    const result = start(path, unprivilegedUser);
    chmodSync(dir, 0o755);
    expectOneLine(
      result,
      `error: ${path} cannot be used: its folder ${dir} is read-only, and SQLite must create waitlist.db-wal and waitlist.db-shm in it; let the user running the app write to that folder`,
    );
  });

  it("a read-only file: the CLI reads it, and a write fails with one line naming the file and the cause", () => {
    const path = join(folder(), "waitlist.db");
    soundDatabase(path);
    handOver(dir, 0o755);
    handOver(path, 0o444);
    const list = cliAs(unprivilegedUser, path, "waitlists", "list", "--json");
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ waitlists: [{ name: "Damaged" }] });
    expectOneLine(
      cliAs(unprivilegedUser, path, "waitlists", "create", "--name", "Refused", "--website", "https://example.com"),
      `error: ${path}: the database cannot be written (a read-only file or folder; check its permissions): nothing was changed`,
    );
  });

  it("a read-only file with a migration pending: npm start stops with one line, and the file is unchanged", () => {
    const path = join(folder(), "waitlist.db");
    soundDatabase(path);
    // As a file written by the previous version: its newest migration not recorded yet.
    const raw = new Database(path);
    raw.exec("DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)");
    raw.close();
    handOver(dir, 0o755);
    handOver(path, 0o444);
    const before = statSync(path).mtimeMs;
    expectOneLine(
      start(path, unprivilegedUser),
      `error: ${path}: its pending migrations were not applied: the database cannot be written (a read-only file or folder; check its permissions): nothing was changed`,
    );
    expect(statSync(path).mtimeMs).toBe(before);
  });
});
