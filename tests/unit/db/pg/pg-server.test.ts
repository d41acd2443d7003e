import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { applyPgMigrations, type PgSession } from "@/db/pg/migrate";
import {
  ensurePostgresInstalled,
  isAlive,
  planPostgres,
  postgresCommand,
  removeAbandonedClusters,
  startPostgres,
  withLockFile,
  type PostgresMachine,
  type PostgresProbe,
  type PostgresServer,
} from "@/tests/support/pg-server";

const MIGRATIONS = join(process.cwd(), "db", "pg", "migrations");

/** The migrator's session on one reserved postgres.js connection. */
function sessionOf(sql: postgres.ReservedSql): PgSession {
  return {
    // Without parameters postgres.js sends the simple protocol, which runs a file of several statements.
    exec: (text) => sql.unsafe(text).simple(),
    query: async <Row>(text: string, params: unknown[] = []) => ({ rows: [...(await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]))] as Row[] }),
  };
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) if (condition()) return true;
  return condition();
}

const machine = (overrides: Partial<PostgresProbe>): PostgresProbe => ({ installedMajors: [], isRoot: false, hasAptGet: true, hasPasswordlessSudo: false, ...overrides });

describe("planPostgres", () => {
  it("uses the newest installed major from 15 on", () => {
    expect(planPostgres(machine({ installedMajors: [15, 17, 16] }))).toEqual({ kind: "found", binDir: "/usr/lib/postgresql/17/bin" });
    expect(planPostgres(machine({ installedMajors: [14], isRoot: true })).kind).toBe("install");
  });

  it("installs Debian's package when missing, as root or with sudo that needs no password", () => {
    expect(planPostgres(machine({ isRoot: true }))).toEqual({
      kind: "install",
      commands: [["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", "postgresql", "postgresql-contrib"]],
    });
    const plan = planPostgres(machine({ hasPasswordlessSudo: true }));
    expect(plan.kind === "install" && plan.commands.map((argv) => argv.slice(0, 2))).toEqual([["sudo", "apt-get"], ["sudo", "apt-get"]]);
  });

  it("says exactly what to run when it may not install", () => {
    expect(planPostgres(machine({}))).toEqual({
      kind: "missing",
      message:
        "The PostgreSQL tests need PostgreSQL 15 or later under /usr/lib/postgresql: run `sudo apt-get update && sudo apt-get install -y --no-install-recommends postgresql postgresql-contrib`, then npm test again.",
    });
    expect(planPostgres(machine({ hasAptGet: false, isRoot: true })).kind).toBe("missing");
  });
});

describe("ensurePostgresInstalled", () => {
  let folder: string;
  beforeAll(() => void (folder = mkdtempSync(join(tmpdir(), "waitlist-lock-"))));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  /** A root machine with apt and no PostgreSQL, on which each command takes 100 ms and the install adds `major`. */
  function bareMachine(major: number, lockFile: string) {
    const ran: string[] = [];
    let majors: number[] = [];
    const machine: PostgresMachine = {
      installedMajors: () => majors,
      probe: () => ({ installedMajors: majors, isRoot: true, hasAptGet: true, hasPasswordlessSudo: false }),
      async run(argv) {
        ran.push(argv.join(" "));
        await sleep(100);
        if (argv.includes("install")) majors = [major];
      },
      lockFile,
    };
    return { machine, ran };
  }

  it("installs once for callers that need it at the same time: the others wait, then find it", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const { machine, ran } = bareMachine(15, join(folder, "install.lock"));
    const binDirs = await Promise.all([ensurePostgresInstalled(machine), ensurePostgresInstalled(machine), ensurePostgresInstalled(machine)]);
    expect(binDirs).toEqual(Array(3).fill("/usr/lib/postgresql/15/bin"));
    expect(ran).toEqual(["apt-get update", "apt-get install -y --no-install-recommends postgresql postgresql-contrib"]);
    expect(existsSync(machine.lockFile)).toBe(false);
  });

  it("fails with the reason when the package brings no PostgreSQL 15 or later", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const { machine } = bareMachine(13, join(folder, "old.lock"));
    await expect(ensurePostgresInstalled(machine)).rejects.toThrow("no PostgreSQL 15 or later is under /usr/lib/postgresql");
    expect(existsSync(machine.lockFile)).toBe(false);
  });

  it("finds the PostgreSQL installed on this machine", async () => {
    expect(await ensurePostgresInstalled()).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin$/);
  });
});

describe("postgresCommand", () => {
  it("runs PostgreSQL's programs as the postgres user from root, and the server with a parent-death signal", () => {
    expect(postgresCommand(["initdb", "-D", "d"], { asRoot: true })).toEqual(["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--", "initdb", "-D", "d"]);
    expect(postgresCommand(["postgres"], { asRoot: true, parentDeathSignal: "INT" })).toEqual(["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--pdeathsig", "INT", "--", "postgres"]);
    expect(postgresCommand(["postgres"], { asRoot: false, parentDeathSignal: "INT" })).toEqual(["setpriv", "--pdeathsig", "INT", "--", "postgres"]);
    expect(postgresCommand(["initdb"], { asRoot: false })).toEqual(["initdb"]);
  });
});

describe("withLockFile", () => {
  let folder: string;
  beforeAll(() => void (folder = mkdtempSync(join(tmpdir(), "waitlist-lock-"))));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("runs one holder at a time", async () => {
    const lock = join(folder, "serial.lock");
    const spans: [number, number][] = [];
    const hold = () => withLockFile(lock, async () => {
      const start = Date.now();
      await sleep(150);
      spans.push([start, Date.now()]);
    });
    await Promise.all([hold(), hold(), hold()]);
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over the lock of a process that died holding it, and waits for a live one", async () => {
    const lock = join(folder, "stale.lock");
    const dead = spawnSync("true").pid;
    writeFileSync(lock, String(dead));
    await expect(withLockFile(lock, async () => readFileSync(lock, "utf8"))).resolves.toBe(String(process.pid));
    writeFileSync(lock, String(process.ppid));
    await expect(withLockFile(lock, async () => "held", 300)).rejects.toThrow(/timed out/);
    rmSync(lock);
  });
});

describe("startPostgres", () => {
  let server: PostgresServer;
  let sql: postgres.Sql;

  beforeAll(async () => {
    server = await startPostgres();
    sql = postgres(server.url, { max: 2, onnotice: () => {} });
  });
  afterAll(async () => {
    await sql?.end();
    await server?.stop();
  });

  it("serves a fresh database on 127.0.0.1, with the settings of a throwaway test cluster", async () => {
    expect(server.url).toMatch(new RegExp(`^postgres://postgres@127\\.0\\.0\\.1:${server.port}/waitlist$`));
    const [settings] = await sql<{ version: string; listen: string; fsync: string; connections: string; database: string; encoding: string }[]>`
      SELECT current_setting('server_version_num') AS version, current_setting('listen_addresses') AS listen, current_setting('fsync') AS fsync,
             current_setting('max_connections') AS connections, current_database() AS database, pg_encoding_to_char(encoding) AS encoding
      FROM pg_database WHERE datname = current_database()`;
    expect(Number(settings!.version)).toBeGreaterThanOrEqual(150000);
    expect(settings).toMatchObject({ listen: "127.0.0.1", fsync: "off", connections: "50", database: "waitlist", encoding: "UTF8" });
  });

  it("applies db/pg/migrations: pg_trgm and every table", async () => {
    const reserved = await sql.reserve();
    try {
      expect(await applyPgMigrations(sessionOf(reserved), MIGRATIONS)).toEqual(readdirSync(MIGRATIONS).filter((file) => file.endsWith(".sql")).sort().map((file) => file.slice(0, -4)));
      expect(await applyPgMigrations(sessionOf(reserved), MIGRATIONS)).toEqual([]);
    } finally {
      reserved.release();
    }
    expect(await sql`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`).toHaveLength(1);
    const created = readdirSync(MIGRATIONS).filter((file) => file.endsWith(".sql")).flatMap((file) => [...readFileSync(join(MIGRATIONS, file), "utf8").matchAll(/CREATE TABLE (\w+)/g)].map((match) => match[1]!));
    const tables = (await sql<{ table_name: string }[]>`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`).map((row) => row.table_name);
    expect(created.length).toBeGreaterThan(20);
    expect(tables.sort()).toEqual([...created, "pg_migrations"].sort());
  });

  it("stops: the server exits, its folder is removed and its port is free", async () => {
    await sql.end();
    await server.stop();
    expect(isAlive(server.pid)).toBe(false);
    expect(existsSync(server.directory)).toBe(false);
    expect(await canListen(server.port)).toBe(true);
    await server.stop(); // again: nothing left to do
  });
});

describe("a test process killed with its server running", () => {
  it("takes the server down with it, and the next start removes its folder", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/unit/fixtures/pg-server-child.ts"], { stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve, reject) => {
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("\n")) resolve(output.split("\n")[0]!);
      });
      child.once("exit", (code) => reject(new Error(`the child exited (${code}) before starting its server: ${output}`)));
    });
    const orphan = JSON.parse(line) as { port: number; directory: string; pid: number };
    expect(isAlive(orphan.pid)).toBe(true);
    child.kill("SIGKILL");
    expect(await waitUntil(() => !isAlive(orphan.pid), 10_000)).toBe(true);
    expect(await canListen(orphan.port)).toBe(true);
    removeAbandonedClusters();
    expect(existsSync(orphan.directory)).toBe(false);
  });
});
