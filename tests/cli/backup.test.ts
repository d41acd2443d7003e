import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { basename, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handOver, isRoot, mountSmallDisk, SMALL_DISK_NEEDS, unprivilegedUser } from "../storage-faults";
import { cliSandbox, expectOneLineError, type CliSandbox } from "./run-cli";

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
