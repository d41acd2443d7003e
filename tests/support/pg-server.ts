import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { accessSync, chownSync, closeSync, constants, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "./free-port";

// A real PostgreSQL server for tests. Debian's package is installed when missing, as the browser tests
// install Chromium (tests/browser/chromium.ts: the decision a pure function of what the machine says),
// and each caller gets a throwaway cluster of its own on a free port of 127.0.0.1.

const PG_ROOT = "/usr/lib/postgresql";
const MIN_MAJOR = 15;
const APT_INSTALL = "apt-get install -y --no-install-recommends postgresql postgresql-contrib";
const INSTALL_LOCK = join(tmpdir(), "waitlist-postgresql-install.lock");
const CLUSTER_PREFIX = "waitlist-pgserver-";
// The pid of the test process a cluster belongs to, in its folder: the folders of dead ones are removed.
const OWNER_FILE = "owner.pid";
const isRoot = process.getuid?.() === 0;

export interface PostgresProbe {
  /** The majors under /usr/lib/postgresql whose bin/postgres is executable. */
  installedMajors: number[];
  isRoot: boolean;
  hasAptGet: boolean;
  /** `sudo -n true` succeeds: sudo works without a password. */
  hasPasswordlessSudo: boolean;
}

export type PostgresPlan =
  | { kind: "found"; binDir: string }
  /** Run these commands (each an argv), then expect PostgreSQL under /usr/lib/postgresql. */
  | { kind: "install"; commands: string[][] }
  /** Stop with this one line. */
  | { kind: "missing"; message: string };

/** The programs' folder of the newest major from 15 on among `majors`. */
function binDirOf(majors: number[]): string | undefined {
  const major = Math.max(0, ...majors);
  return major >= MIN_MAJOR ? join(PG_ROOT, String(major), "bin") : undefined;
}

export function planPostgres(probe: PostgresProbe): PostgresPlan {
  const binDir = binDirOf(probe.installedMajors);
  if (binDir) return { kind: "found", binDir };
  const update = ["apt-get", "update"];
  const install = APT_INSTALL.split(" ");
  if (probe.hasAptGet && probe.isRoot) return { kind: "install", commands: [update, install] };
  if (probe.hasAptGet && probe.hasPasswordlessSudo) return { kind: "install", commands: [["sudo", ...update], ["sudo", ...install]] };
  const how = probe.hasAptGet ? `sudo apt-get update && sudo ${APT_INSTALL}` : "install your system's PostgreSQL server package";
  return { kind: "missing", message: `The PostgreSQL tests need PostgreSQL ${MIN_MAJOR} or later under ${PG_ROOT}: run \`${how}\`, then npm test again.` };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function installedMajors(): number[] {
  let names: string[];
  try {
    names = readdirSync(PG_ROOT);
  } catch {
    return [];
  }
  return names.filter((name) => /^\d+$/.test(name) && isExecutable(join(PG_ROOT, name, "bin", "postgres"))).map(Number);
}

function probeMachine(): PostgresProbe {
  const succeeds = (command: string, args: string[]) => spawnSync(command, args, { stdio: "ignore" }).status === 0;
  return { installedMajors: installedMajors(), isRoot, hasAptGet: succeeds("sh", ["-c", "command -v apt-get"]), hasPasswordlessSudo: succeeds("sudo", ["-n", "true"]) };
}

/** Whether process `pid` runs (a zombie, dead but not yet reaped, does not). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no /proc here
  }
}

/**
 * Runs `task` holding the lock file `path`, for which other processes wait. The file holds its
 * holder's pid: one left by a process that died is taken over.
 */
export async function withLockFile<T>(path: string, task: () => Promise<T>, timeoutMs = 15 * 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let holder = "";
    try {
      holder = readFileSync(path, "utf8");
    } catch {
      continue; // released meanwhile
    }
    // An empty file is one whose holder has not written its pid yet.
    if (holder !== "" && !isAlive(Number(holder))) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${path} (held by pid ${holder})`);
    await sleep(200);
  }
  try {
    return await task();
  } finally {
    rmSync(path, { force: true });
  }
}

interface Finished {
  status: number | null;
  /** The end of its stdout and stderr. */
  output: string;
}

function run(argv: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, output }));
  });
}

async function runOrThrow(argv: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  const { status, output } = await run(argv, options);
  if (status !== 0) throw new Error(`\`${argv.join(" ")}\` failed (exit ${status}):\n${output.trim()}`);
}

/** What ensurePostgresInstalled asks of the machine: this one, or a test's stand-in. */
export interface PostgresMachine {
  installedMajors(): number[];
  probe(): PostgresProbe;
  /** Runs one command of the install; throws when it fails. */
  run(argv: string[]): Promise<void>;
  lockFile: string;
}

const thisMachine: PostgresMachine = {
  installedMajors,
  probe: probeMachine,
  run: (argv) => runOrThrow(argv, { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }),
  lockFile: INSTALL_LOCK,
};

/**
 * The folder of PostgreSQL's programs (the newest major ≥ 15 under /usr/lib/postgresql), after
 * installing Debian's package when there is none. One process installs; the others wait for it.
 */
export async function ensurePostgresInstalled(machine = thisMachine): Promise<string> {
  const installed = binDirOf(machine.installedMajors());
  if (installed) return installed;
  return withLockFile(machine.lockFile, async () => {
    const plan = planPostgres(machine.probe());
    if (plan.kind === "found") return plan.binDir; // installed by the process we waited for
    if (plan.kind === "missing") throw new Error(plan.message);
    console.log(`PostgreSQL is missing: installing Debian's postgresql package (${plan.commands.map((argv) => argv.join(" ")).join(" && ")})`);
    for (const argv of plan.commands) await machine.run(argv);
    const binDir = binDirOf(machine.installedMajors());
    if (!binDir) throw new Error(`the postgresql package installed, but no PostgreSQL ${MIN_MAJOR} or later is under ${PG_ROOT}`);
    return binDir;
  });
}

/**
 * `argv` as PostgreSQL's programs must run: as the `postgres` user when this process is root (the
 * server refuses root), and, for the server, sent `parentDeathSignal` when the process that started
 * it dies (so that a killed test run leaves no server behind). setpriv execs, so the pid is the program's.
 */
export function postgresCommand(argv: string[], { asRoot, parentDeathSignal }: { asRoot: boolean; parentDeathSignal?: string }): string[] {
  const setpriv = [...(asRoot ? ["--reuid=postgres", "--regid=postgres", "--init-groups"] : []), ...(parentDeathSignal ? ["--pdeathsig", parentDeathSignal] : [])];
  return setpriv.length === 0 ? argv : ["setpriv", ...setpriv, "--", ...argv];
}

function postgresUser(): { uid: number; gid: number } {
  const entry = spawnSync("getent", ["passwd", "postgres"], { encoding: "utf8" }).stdout.split(":");
  if (entry.length < 4) throw new Error("there is no `postgres` user to run PostgreSQL as (Debian's postgresql package creates it)");
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}


/** The pid in the cluster's postmaster.pid, which the server removes when it stops. */
function postmasterOf(directory: string): number | undefined {
  try {
    return Number(readFileSync(join(directory, "data", "postmaster.pid"), "utf8").split("\n")[0]) || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Removes the folders of clusters whose test process died without stopping them (their server died with it). */
export function removeAbandonedClusters(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue;
    const directory = join(tmpdir(), name);
    try {
      const owner = Number(readFileSync(join(directory, OWNER_FILE), "utf8"));
      const postmaster = postmasterOf(directory);
      if (!(owner > 0) || isAlive(owner) || (postmaster !== undefined && isAlive(postmaster))) continue;
      rmSync(directory, { recursive: true, force: true });
    } catch {
      // Not ours to judge (still starting, or another user's): left alone.
    }
  }
}

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/DATABASE (trust authentication). */
  url: string;
  port: number;
  /** The cluster's folder: its data, socket and log. */
  directory: string;
  /** The postmaster's pid. */
  pid: number;
  /** Fast shutdown, then the folder is removed. */
  stop(): Promise<void>;
}

class PortTaken extends Error {}

function logOf(directory: string): string {
  try {
    return readFileSync(join(directory, "postgres.log"), "utf8").trim().slice(-4000);
  } catch {
    return "(no log)";
  }
}

async function launch(binDir: string, directory: string, port: number, readyTimeoutMs: number): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const log = openSync(join(directory, "postgres.log"), "a");
  const argv = [join(binDir, "postgres"), "-D", join(directory, "data"), "-p", String(port), "-k", directory];
  // The data is thrown away with the test, so nothing is made durable: no fsync, no waiting for the
  // WAL at commit, no full-page images. A crash loses the cluster, which a test never reuses.
  for (const setting of ["listen_addresses=127.0.0.1", "fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=50"]) argv.push("-c", setting);
  // SIGINT is a fast shutdown: sessions are ended and the server exits within a second.
  const [command, ...args] = postgresCommand(argv, { asRoot: isRoot, parentDeathSignal: "INT" });
  const child = spawn(command!, args, { cwd: directory, stdio: ["ignore", log, log] });
  closeSync(log);
  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", (error) => {
      spawnError = error;
      resolve();
    });
  });
  if (child.pid === undefined) {
    await exited;
    throw new Error(`could not start \`${command}\` (setpriv is util-linux's): ${spawnError?.message}`);
  }
  // A test process may end without stopping it: the parent-death signal stops it then.
  child.unref();
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const log = logOf(directory);
      const failure = `PostgreSQL exited while starting on port ${port}:\n${log}`;
      throw /Address already in use/.test(log) ? new PortTaken(failure) : new Error(failure);
    }
    const ready = await run([join(binDir, "pg_isready"), "-q", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres"]);
    if (ready.status === 0) return { child, exited };
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`PostgreSQL did not accept connections on port ${port} within ${readyTimeoutMs} ms:\n${logOf(directory)}`);
    }
    await sleep(50);
  }
}

/**
 * A throwaway PostgreSQL cluster: initdb into a new temporary folder, a server on 127.0.0.1 only
 * (`port`, or a free one), and an empty database. Stop it when done; if the test process dies
 * first, the server stops with it and the next start removes its folder.
 */
export async function startPostgres({ port, database = "waitlist", readyTimeoutMs = 30_000 }: { port?: number; database?: string; readyTimeoutMs?: number } = {}): Promise<PostgresServer> {
  const binDir = await ensurePostgresInstalled();
  removeAbandonedClusters();
  const directory = mkdtempSync(join(tmpdir(), CLUSTER_PREFIX));
  writeFileSync(join(directory, OWNER_FILE), String(process.pid));
  try {
    if (isRoot) {
      const { uid, gid } = postgresUser();
      chownSync(directory, uid, gid);
    }
    const initdb = [join(binDir, "initdb"), "-D", join(directory, "data"), "-U", "postgres", "-A", "trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"];
    await runOrThrow(postgresCommand(initdb, { asRoot: isRoot }), { cwd: directory });
    for (let attempt = 1; ; attempt++) {
      const serverPort = port ?? (await freePort());
      let started: { child: ChildProcess; exited: Promise<void> };
      try {
        started = await launch(binDir, directory, serverPort, readyTimeoutMs);
      } catch (error) {
        // Another process took the free port between our look and the server's bind: try another.
        if (error instanceof PortTaken && port === undefined && attempt < 3) continue;
        throw error;
      }
      const { child, exited } = started;
      let stopping: Promise<void> | undefined;
      const stop = () =>
        (stopping ??= (async () => {
          child.ref();
          if (child.exitCode === null && child.signalCode === null) {
            child.kill("SIGINT");
            const timedOut = await Promise.race([exited.then(() => false), sleep(10_000, true, { ref: false })]);
            if (timedOut) child.kill("SIGKILL");
            await exited;
          }
          rmSync(directory, { recursive: true, force: true });
        })());
      try {
        await runOrThrow([join(binDir, "createdb"), "-h", "127.0.0.1", "-p", String(serverPort), "-U", "postgres", database]);
      } catch (error) {
        await stop();
        throw error;
      }
      return { url: `postgres://postgres@127.0.0.1:${serverPort}/${database}`, port: serverPort, directory, pid: child.pid!, stop };
    }
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}
