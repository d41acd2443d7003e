import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, readlinkSync, closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { applyMigrations } from "@/db/migrate";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { insertSignups } from "@/tests/support/insert-signups";
import { checkoutFor, removeLinkedCheckout } from "@/tests/support/reachable-checkout";
import { handOver, isRoot, mountSmallDisk, SMALL_DISK_NEEDS, unprivilegedUser, type TestUser } from "@/tests/support/storage-faults";
import { cliSandbox, expectOneLineError, type CliSandbox, type CliResult } from "../run-cli";

// The code the unprivileged user runs, hard-linked where they can reach it when the checkout is not (reachable-checkout.ts).
afterAll(removeLinkedCheckout);

describe("backups", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());

  describe("db backup", () => {
    it("writes one self-contained, sound copy with the same rows, and reports what it holds", () => {
      const { id } = cli.json<{ id: string }>("waitlists", "create", "--name", "Backed up", "--website", "https://example.com");
      cli.json("signups", "import", "--waitlist", id, cli.file("s.csv", "email,verified\na@example.com,true\nb@example.com,false\n"));
      const destination = join(cli.dir, "copy.db");
      const result = cli.json<{ path: string; waitlists: number; signups: number; bytes: number }>("db", "backup", destination);
      expect(result).toMatchObject({ path: destination, waitlists: 1, signups: 2 });
      expect(result.bytes).toBeGreaterThan(0);
      // No -wal/-shm next to the copy, and no partial file left behind.
      expect(readdirSync(cli.dir).filter((name) => name.startsWith("copy.db"))).toEqual(["copy.db"]);
      const copy = new Database(destination, { readonly: true });
      try {
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(copy.prepare("SELECT email, verified FROM signups ORDER BY id").all()).toEqual(
          cli.rows("signups").map((row) => ({ email: row.email, verified: row.verified })),
        );
      } finally {
        copy.close();
      }
    });

    it("refuses to overwrite a file unless --force, and never replaces the database itself", () => {
      const destination = cli.file("existing.db", "keep me");
      expect(expectOneLineError(cli.run("db", "backup", destination))).toBe(`error: ${destination} exists; pass --force to replace it`);
      expect(cli.run("db", "backup", destination, "--force", "--json").status).toBe(0);
      const copy = new Database(destination, { readonly: true });
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      copy.close();
      expect(expectOneLineError(cli.run("db", "backup", cli.databasePath, "--force"))).toBe("error: the backup cannot replace the database itself");
    });

    it("creates a missing parent folder", () => {
      const destination = join(cli.dir, "backups", "2026", "waitlist.db");
      expect(cli.json<{ path: string }>("db", "backup", destination).path).toBe(destination);
      const copy = new Database(destination, { readonly: true });
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      copy.close();
    });
  });

  const KEEP_OPEN = `
  const db = new (require("better-sqlite3"))(process.argv[1]);
  db.pragma("wal_autocheckpoint = 0");
  db.prepare("SELECT count(*) FROM waitlists").get();
  process.stdout.write("ready\\n");
  process.stdin.on("end", () => db.close()).resume();
`;

  describe("db backup never replaces the live database files", () => {
    let live: CliSandbox;
    let app: ChildProcessWithoutNullStreams;
    const wal = () => `${live.databasePath}-wal`;
    // The -shm changes as readers come and go; it must only never be replaced.
    const files = () => ({ database: readFileSync(live.databasePath), wal: readFileSync(wal()), shm: statSync(`${live.databasePath}-shm`).ino });

    beforeAll(async () => {
      live = cliSandbox();
      live.json("db", "migrate");
      // The running app, in a process of its own (closing any descriptor of the file in this process would
      // drop its locks): while it is attached, the CLI's commits stay in the WAL.
      app = spawn(process.execPath, ["-e", KEEP_OPEN, live.databasePath]);
      await once(app.stdout, "data");
      live.json("waitlists", "create", "--name", "In the WAL", "--website", "https://example.com");
      expect(statSync(wal()).size).toBeGreaterThan(0);
      symlinkSync(live.dir, join(live.dir, "alias"));
      symlinkSync(wal(), join(live.dir, "link-to-wal"));
    });
    afterAll(async () => {
      app.stdin.end();
      await once(app, "close");
      live.remove();
    });

    it.each([
      ["the database", () => live.databasePath, () => "the database itself"],
      ["its -wal", () => wal(), () => `the database's write-ahead log (${live.databasePath}-wal)`],
      ["its -shm", () => `${live.databasePath}-shm`, () => `the database's shared-memory file (${live.databasePath}-shm)`],
      ["its -journal (absent)", () => `${live.databasePath}-journal`, () => `the database's rollback journal (${live.databasePath}-journal)`],
      ["its -wal through a symlinked folder", () => join(live.dir, "alias", `${basename(live.databasePath)}-wal`), () => `the database's write-ahead log (${live.databasePath}-wal)`],
      ["its -journal through a symlinked folder", () => join(live.dir, "alias", `${basename(live.databasePath)}-journal`), () => `the database's rollback journal (${live.databasePath}-journal)`],
      ["a symlink to its -wal", () => join(live.dir, "link-to-wal"), () => `the database's write-ahead log (${live.databasePath}-wal)`],
    ])("refuses %s, even with --force, and changes nothing", (_, destination, what) => {
      const before = files();
      expect(expectOneLineError(live.run("db", "backup", destination(), "--force"))).toBe(`error: the backup cannot replace ${what()}`);
      expect(files()).toEqual(before);
      expect(existsSync(`${live.databasePath}-journal`)).toBe(false);
      expect(readdirSync(live.dir).filter((name) => name.includes(".partial-"))).toEqual([]);
    });

    it("refuses a folder, with or without --force, and a name ending in a slash, and creates nothing", () => {
      const before = files();
      mkdirSync(join(live.dir, "folder"));
      for (const args of [[join(live.dir, "folder")], [join(live.dir, "folder"), "--force"], [join(live.dir, "alias") + "/", "--force"]]) {
        expect(expectOneLineError(live.run("db", "backup", ...args))).toMatch(/^error: \/.+ is a folder: give the backup a file name, e\.g\. \/.+\/waitlist\.db$/);
      }
      expect(expectOneLineError(live.run("db", "backup", join(live.dir, "new-folder") + "/"))).toBe(
        `error: ${join(live.dir, "new-folder")} is a folder: give the backup a file name, e.g. ${join(live.dir, "new-folder", "waitlist.db")}`,
      );
      expect(existsSync(join(live.dir, "new-folder"))).toBe(false);
      expect(readdirSync(join(live.dir, "folder"))).toEqual([]);
      expect(files()).toEqual(before);
    });
  });

  /** Adds `megabytes` of incompressible pages to the sandbox's database (a table of its own), checkpointed. */
  function growDatabase(sandbox: CliSandbox, megabytes: number): void {
    const db = new Database(sandbox.databasePath);
    db.exec(`CREATE TABLE ballast (b BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${megabytes * 256}) INSERT INTO ballast SELECT randomblob(3900) FROM n`);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
  }

  const partialsIn = (dir: string) => readdirSync(dir).filter((name) => name.includes(".partial"));

  describe("db backup leftovers and a destination that cannot take the copy", () => {
    let big: CliSandbox;
    beforeAll(() => {
      big = cliSandbox();
      big.json("waitlists", "create", "--name", "Big", "--website", "https://example.com");
      growDatabase(big, 120);
    });
    afterAll(() => big.remove());

    it("a backup killed mid-way leaves its partial file, which the next backup into that folder removes", async () => {
      const folder = join(big.dir, "backups");
      mkdirSync(folder);
      const destination = join(folder, "copy.db");
      const killed = big.start("db", "backup", destination);
      const deadline = Date.now() + 30_000;
      while (partialsIn(folder).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      process.kill(killed.pid, "SIGKILL");
      expect((await killed.result).status).toBe(null);
      // What SIGKILL leaves: the copy so far, and SQLite's journal of it.
      expect(partialsIn(folder).length).toBeGreaterThan(0);
      expect(existsSync(destination)).toBe(false);

      // Another backup, under another name, in the same folder.
      const next = big.json<{ path: string }>("db", "backup", join(folder, "copy-2.db"));
      expect(next.path).toBe(join(folder, "copy-2.db"));
      expect(readdirSync(folder)).toEqual(["copy-2.db"]);
    });

    it("into a folder it cannot write: one line naming the folder, and nothing written", () => {
      // The CLI runs as a user for whom permissions hold (storage-faults.ts): the database is theirs, the folder is not.
      const sandbox = cliSandbox();
      try {
        sandbox.json("db", "migrate");
        handOver(sandbox.dir, 0o755);
        handOver(sandbox.databasePath, 0o644);
        const folder = join(sandbox.dir, "read-only");
        mkdirSync(folder, { mode: 0o755 });
        if (!unprivilegedUser) chmodSync(folder, 0o555);
        const result = spawnSync(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "db", "backup", join(folder, "copy.db")], {
          encoding: "utf8",
          env: { ...process.env, DATABASE_PATH: sandbox.databasePath, NODE_NO_WARNINGS: "1" },
          cwd: checkoutFor(unprivilegedUser),
          ...unprivilegedUser,
        });
        expect(expectOneLineError({ status: result.status, stdout: result.stdout, stderr: result.stderr })).toBe(
          `error: the backup's destination folder ${folder} cannot be written (check its permissions): no backup was written, and the database was not changed`,
        );
        expect(readdirSync(folder)).toEqual([]);
      } finally {
        sandbox.remove();
      }
    });

    it.skipIf(!isRoot)(`onto a full disk: one line naming the destination's disk, and nothing left there (${SMALL_DISK_NEEDS})`, () => {
      const disk = mountSmallDisk(join(big.dir, "small-disk"), 16);
      try {
        const destination = join(disk.dir, "copy.db");
        const line = expectOneLineError(big.run("db", "backup", destination));
        expect(line).toBe(`error: the disk of the backup's destination (${disk.dir}) is full: no backup was written, and the database was not changed`);
        expect(readdirSync(disk.dir)).toEqual([]);
      } finally {
        disk.unmount();
      }
    });
  });
});

describe("db migrate and seed-demo", () => {
  let cli: CliSandbox;
  beforeAll(() => (cli = cliSandbox()));
  afterAll(() => cli.remove());


  describe("db", () => {
    it("migrates and seeds demo data idempotently", () => {
      expect(cli.json("db", "migrate")).toMatchObject({ migrated: true });
      const first = cli.json("db", "seed-demo");
      expect(first).toEqual({ waitlists_created: 5, signups_created: 66_000 });
      const count = cli.rows("signups").length;
      expect(cli.json("db", "seed-demo")).toEqual({ waitlists_created: 0, signups_created: 0 });
      expect(cli.rows("signups")).toHaveLength(count);
    });
  });
});

describe("db migrate, concurrently", () => {
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
});

describe("a damaged or unwritable database", () => {
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
      cwd: checkoutFor(user),
      ...user,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  const start = (databasePath: string, user?: TestUser) => run(["lib/server/main.ts"], databasePath, user);
  const cli = (databasePath: string, ...args: string[]) => run(["lib/cli/main.ts", ...args], databasePath);
  const cliAs = (user: TestUser | undefined, databasePath: string, ...args: string[]) => run(["lib/cli/main.ts", ...args], databasePath, user);

  /** A migrated database with a waitlist of `signups` signups, checkpointed into the file and closed. */
  async function soundDatabase(path: string, signups = 0): Promise<void> {
    const db = openDatabase(path);
    const { id } = await createWaitlist({ name: "Damaged", website: "https://example.com" }, db);
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

    it("a corrupt schema page: npm start and the CLI stop with one line naming the file and the cure", async () => {
      const path = join(folder(), "waitlist.db");
      await soundDatabase(path);
      damage(path, 100, 3996);
      const line = `error: ${path} is damaged (SQLite found a corrupt page): ${RESTORE}`;
      for (const result of [start(path), cli(path, "waitlists", "list"), cli(path, "db", "check")]) expectOneLine(result, line);
    });

    it("damage in the middle of the file: db check (and db migrate) find it and name it; a sound file passes", async () => {
      const path = join(folder(), "waitlist.db");
      await soundDatabase(path, 20_000);
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
    it("in a read-only folder without its -wal and -shm: npm start stops with one line naming the folder", async () => {
      const path = join(folder(), "waitlist.db");
      await soundDatabase(path);
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

    it("a read-only file: the CLI reads it, and a write fails with one line naming the file and the cause", async () => {
      const path = join(folder(), "waitlist.db");
      await soundDatabase(path);
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
      // A file written by the previous version: every migration but the newest applied.
      const previous = join(dir, "previous-migrations");
      cpSync("db/migrations", previous, { recursive: true });
      const journalPath = join(previous, "meta", "_journal.json");
      const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: unknown[] };
      writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));
      const raw = new Database(path);
      raw.pragma("journal_mode = WAL");
      applyMigrations(raw, previous);
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
});
