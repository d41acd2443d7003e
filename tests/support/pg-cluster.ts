import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";

// A 3-node PostgreSQL 15 cluster under Patroni with 3 etcd members, all on 127.0.0.1, for the
// failover tests (issue 34, item 4). Everything lives in one temporary folder and runs as the
// `postgres` OS user (PostgreSQL refuses root). Debian's packages are installed when missing, as
// tests/browser/ensure-chromium.ts does for Chromium.
//
// Each etcd member and each Patroni is started in a session of its own (`detached`) under runuser,
// which forks: one process-group kill takes runuser and its child (see killNodeFunction).

const PACKAGES = ["postgresql-15", "patroni", "etcd-server"];
const PG_BIN = "/usr/lib/postgresql/15/bin";
const SCOPE = "waitlist";
const DATABASE = "waitlist";
const SUPERUSER = { username: "postgres", password: "failover-superuser" };
const REPLICATOR = { username: "replicator", password: "failover-replicator" };
const START_TIMEOUT_MS = 120_000;

export interface ClusterMember {
  name: string;
  pgPort: number;
  restPort: number;
  etcdClientPort: number;
}

export interface KilledLeader {
  name: string;
  /** Date.now() just after the last SIGKILL was sent. */
  killedAt: number;
}

export interface PgCluster {
  /** Every node, writes go to whichever is primary: `postgres://…@h1:p1,h2:p2,h3:p3/waitlist?target_session_attrs=primary`. */
  url: string;
  /** Every node, reads from a standby while one answers: `target_session_attrs=prefer-standby`. */
  replicaUrl: string;
  members: ClusterMember[];
  /** The folder that holds the data directories and each process's log (`<name>.patroni.log`, `<name>.etcd.log`). */
  dir: string;
  /** The name of the current leader, as the Patroni REST API of a live member says. */
  leader(): Promise<string>;
  /** SIGKILL of the leader's postgres (the postmaster and every backend), its Patroni and its etcd member; resolves once they are dead. */
  killLeader(): Promise<KilledLeader>;
  /** Waits until a leader and two streaming replicas (one of them synchronous) exist again, or throws. */
  waitHealthy(timeoutMs?: number): Promise<string>;
  /** Kills every process of the cluster and removes its folder. */
  stop(): void;
}

interface PatroniClusterView {
  members: { name: string; role: string; state: string }[];
}

interface PatroniNodeStatus {
  role?: string;
  replication?: { application_name: string; state: string; sync_state: string }[];
}

/** Installs the missing Debian packages when this user may, or throws one line that says what to run. */
function ensurePackages(): void {
  const missing = PACKAGES.filter((name) => {
    const result = spawnSync("dpkg-query", ["-W", "-f=${Status}", name], { encoding: "utf8" });
    return result.status !== 0 || !result.stdout.includes("install ok installed");
  });
  if (missing.length === 0) return;
  const install = ["apt-get", "install", "-y", "--no-install-recommends", ...missing];
  const isRoot = process.getuid?.() === 0;
  const hasAptGet = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  const hasSudo = !isRoot && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
  if (!hasAptGet || (!isRoot && !hasSudo)) {
    throw new Error(`The failover test needs Debian's ${missing.join(", ")}: run \`sudo apt-get update && sudo ${install.join(" ")}\`, then run it again.`);
  }
  const sudo = isRoot ? [] : ["sudo"];
  console.log(`Installing Debian's ${missing.join(", ")} for the failover test`);
  for (const [command, ...args] of [[...sudo, "apt-get", "update"], [...sudo, ...install]]) {
    const result = spawnSync(command!, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    if (result.status !== 0) throw new Error(`\`${[command, ...args].join(" ")}\` failed (exit ${result.status ?? result.signal}): install ${missing.join(", ")} yourself.`);
  }
}

/** `count` distinct ports that were free a moment ago (all held open at once, so no two are equal). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  const uid = id("-u");
  if (!Number.isInteger(uid) || uid <= 0) throw new Error("The failover test runs PostgreSQL as the `postgres` OS user, which does not exist: install postgresql-15.");
  return { uid, gid: id("-g") };
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * Shell that defines `kill_node NAME`: SIGKILL of that node's Patroni and etcd member (runuser and its
 * child share a group), then of its postgres. Patroni goes first, so that it starts no new postmaster.
 * Each backend is a session of its own (PostgreSQL's children call setsid), so the postmaster is
 * stopped (it forks no more), its children killed, then itself. It prints every pid it signalled.
 */
function killNodeFunction(dir: string): string {
  return [
    `dir=${shellQuote(dir)}`,
    "kill_node() {",
    '  for f in "$dir/pids/$1.patroni" "$dir/pids/$1.etcd"; do [ -f "$f" ] || continue; g=$(cat "$f"); pgrep -g "$g"; kill -KILL -- "-$g" 2>/dev/null; done',
    '  p="$dir/$1/data/postmaster.pid"; [ -f "$p" ] || return 0',
    '  pm=$(sed -n 1p "$p")',
    // A stale postmaster.pid may name a pid that another process has by now.
    '  tr "\\0" " " < "/proc/$pm/cmdline" 2>/dev/null | grep -qF -- "$dir/$1/data" || return 0',
    '  kill -STOP "$pm"; pgrep -P "$pm"; pkill -KILL -P "$pm"; kill -KILL "$pm"; echo "$pm"',
    "}",
  ].join("\n");
}

/**
 * One shell script that kills every process of the cluster and removes its folder: run by stop(), by
 * this process's exit handler, and by a watchdog when this process dies without either (SIGKILL, crash).
 */
function cleanupScript(dir: string, names: string[]): string {
  return [
    killNodeFunction(dir),
    `for name in ${names.join(" ")}; do kill_node "$name" >/dev/null; done`,
    `for i in $(seq 50); do pgrep -u postgres -f -- "$dir" >/dev/null || break; sleep 0.1; done`,
    // A killed postmaster leaves its System V segment behind; the key and id are on line 7 of postmaster.pid.
    `for p in "$dir"/*/data/postmaster.pid; do [ -f "$p" ] || continue; id=$(sed -n 7p "$p" | awk '{print $2}'); [ -n "$id" ] && ipcrm -m "$id" 2>/dev/null; done`,
    `rm -rf -- "$dir"`,
  ].join("\n");
}

async function getJson<T>(url: string): Promise<T | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    // Patroni answers 503 with a body on a replica's /patroni; the body is what is wanted.
    return (await response.json()) as T;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function patroniConfig(dir: string, member: ClusterMember, etcdHosts: string[]): object {
  const hba = [
    "local all all trust",
    `host replication ${REPLICATOR.username} 127.0.0.1/32 scram-sha-256`,
    "host all all 127.0.0.1/32 scram-sha-256",
  ];
  return {
    scope: SCOPE,
    name: member.name,
    restapi: { listen: `127.0.0.1:${member.restPort}`, connect_address: `127.0.0.1:${member.restPort}` },
    etcd3: { hosts: etcdHosts },
    bootstrap: {
      dcs: {
        // ttl 10 as checked in issue 34; Patroni wants loop_wait + 2 × retry_timeout ≤ ttl.
        ttl: 10,
        loop_wait: 2,
        retry_timeout: 4,
        maximum_lag_on_failover: 1_048_576,
        // A commit is acknowledged only once a synchronous standby has it, and only that standby may be promoted.
        synchronous_mode: true,
        postgresql: {
          use_pg_rewind: true,
          parameters: {
            wal_level: "replica",
            hot_standby: "on",
            max_wal_senders: 10,
            max_replication_slots: 10,
            wal_log_hints: "on",
            max_connections: 100,
          },
        },
      },
      initdb: [{ encoding: "UTF8" }, { locale: "C" }],
    },
    postgresql: {
      listen: `127.0.0.1:${member.pgPort}`,
      connect_address: `127.0.0.1:${member.pgPort}`,
      data_dir: join(dir, member.name, "data"),
      bin_dir: PG_BIN,
      pgpass: join(dir, member.name, "pgpass"),
      authentication: { superuser: SUPERUSER, replication: REPLICATOR },
      pg_hba: hba,
      parameters: {
        unix_socket_directories: join(dir, member.name),
        // Dynamic shared memory in the data directory: a SIGKILL leaves nothing in /dev/shm.
        dynamic_shared_memory_type: "mmap",
        shared_buffers: "32MB",
        fsync: "on",
      },
    },
    watchdog: { mode: "off" },
  };
}

function multiHostUrl(members: ClusterMember[], attrs: string): string {
  const hosts = members.map((member) => `127.0.0.1:${member.pgPort}`).join(",");
  return `postgres://${SUPERUSER.username}:${SUPERUSER.password}@${hosts}/${DATABASE}?target_session_attrs=${attrs}`;
}

/** Starts the cluster and resolves once a leader and two streaming replicas (one synchronous) exist. */
export async function startCluster(): Promise<PgCluster> {
  ensurePackages();
  const { uid, gid } = postgresIds();
  const dir = mkdtempSync(join(tmpdir(), "waitlist-pg-cluster-"));
  mkdirSync(join(dir, "pids"));
  const names = ["pg1", "pg2", "pg3"];
  const cleanup = cleanupScript(dir, names);
  const runCleanup = () => spawnSync("bash", ["-c", cleanup], { stdio: "ignore" });
  process.on("exit", runCleanup);
  // The watchdog outlives a SIGKILLed test process; stop() ends it.
  const watchdog = spawn("bash", ["-c", `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done\n${cleanup}`], { detached: true, stdio: "ignore" });
  watchdog.unref();

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    runCleanup();
    process.off("exit", runCleanup);
    try {
      process.kill(-watchdog.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  };

  try {
    const ports = await freePorts(12);
    const members: ClusterMember[] = names.map((name, i) => ({ name, pgPort: ports[i]!, restPort: ports[3 + i]!, etcdClientPort: ports[6 + i]! }));
    const etcdPeerPorts = ports.slice(9, 12);
    for (const member of members) mkdirSync(join(dir, member.name));
    spawnSync("chown", ["-R", `${uid}:${gid}`, dir]);

    const launch = (label: string, argv: string[]) => {
      const log = openSync(join(dir, `${label}.log`), "a");
      const child = spawn("runuser", ["-u", "postgres", "--", ...argv], { detached: true, stdio: ["ignore", log, log], cwd: dir });
      closeSync(log);
      child.unref();
      writeFileSync(join(dir, "pids", label), String(child.pid));
    };

    const initialCluster = members.map((member, i) => `etcd-${member.name}=http://127.0.0.1:${etcdPeerPorts[i]}`).join(",");
    members.forEach((member, i) => {
      const client = `http://127.0.0.1:${member.etcdClientPort}`;
      const peer = `http://127.0.0.1:${etcdPeerPorts[i]}`;
      launch(`${member.name}.etcd`, [
        "etcd", "--name", `etcd-${member.name}`, "--data-dir", join(dir, member.name, "etcd"),
        "--listen-client-urls", client, "--advertise-client-urls", client,
        "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
        "--initial-cluster", initialCluster, "--initial-cluster-state", "new", "--initial-cluster-token", `${SCOPE}-${process.pid}`,
        "--log-level", "warn",
      ]);
    });
    const etcdHosts = members.map((member) => `127.0.0.1:${member.etcdClientPort}`);
    await waitFor("etcd members healthy", 30_000, async () => {
      const health = await Promise.all(members.map((member) => getJson<{ health: string }>(`http://127.0.0.1:${member.etcdClientPort}/health`)));
      return health.every((answer) => answer?.health === "true") ? true : undefined;
    });

    for (const member of members) {
      const config = join(dir, member.name, "patroni.yml");
      // YAML is a superset of JSON.
      writeFileSync(config, JSON.stringify(patroniConfig(dir, member, etcdHosts), null, 2));
      spawnSync("chown", [`${uid}:${gid}`, config]);
      launch(`${member.name}.patroni`, ["patroni", config]);
    }

    const alive = new Set(members.map((member) => member.name));

    const clusterView = async (): Promise<PatroniClusterView | undefined> => {
      for (const member of members) {
        if (!alive.has(member.name)) continue;
        const view = await getJson<PatroniClusterView>(`http://127.0.0.1:${member.restPort}/cluster`);
        if (view?.members) return view;
      }
      return undefined;
    };

    const leader = async () => {
      const name = (await clusterView())?.members.find((member) => member.role === "leader")?.name;
      if (!name) throw new Error("The cluster has no leader now.");
      return name;
    };

    const waitHealthy = (timeoutMs = START_TIMEOUT_MS) =>
      waitFor(`a leader and ${alive.size - 1} streaming replicas`, timeoutMs, async () => {
        const view = await clusterView();
        const leaderMember = view?.members.find((member) => member.role === "leader" && member.state === "running");
        const replicas = view?.members.filter((member) => (member.role === "replica" || member.role === "sync_standby") && member.state === "running") ?? [];
        if (!leaderMember || replicas.length < alive.size - 1 || !replicas.some((member) => member.role === "sync_standby")) return undefined;
        const restPort = members.find((member) => member.name === leaderMember.name)!.restPort;
        const status = await getJson<PatroniNodeStatus>(`http://127.0.0.1:${restPort}/patroni`);
        const streaming = status?.replication?.filter((row) => row.state === "streaming") ?? [];
        if (streaming.length < alive.size - 1 || !streaming.some((row) => row.sync_state === "sync")) return undefined;
        return leaderMember.name;
      });

    const firstLeader = await waitHealthy();
    const leaderMember = members.find((member) => member.name === firstLeader)!;
    const psql = (member: ClusterMember, database: string, command: string) =>
      spawnSync(join(PG_BIN, "psql"), ["-h", join(dir, member.name), "-p", String(member.pgPort), "-U", SUPERUSER.username, "-d", database, "-v", "ON_ERROR_STOP=1", "-c", command], { encoding: "utf8", uid, gid });
    const created = psql(leaderMember, "postgres", `CREATE DATABASE ${DATABASE}`);
    if (created.status !== 0) throw new Error(`CREATE DATABASE failed: ${created.stderr}`);
    // A standby that has not replayed it yet refuses the connection, and postgres.js then fails the
    // multi-host connect instead of trying the next host.
    await waitFor(`database ${DATABASE} on every node`, 30_000, async () => (members.every((member) => psql(member, DATABASE, "SELECT 1").status === 0) ? true : undefined));

    const killLeader = async (): Promise<KilledLeader> => {
      const name = await leader();
      const member = members.find((candidate) => candidate.name === name)!;
      const killed = spawnSync("bash", ["-c", `${killNodeFunction(dir)}\nkill_node ${name}`], { encoding: "utf8" });
      const killedAt = Date.now();
      const pids = killed.stdout.split("\n").filter(Boolean).map(Number);
      alive.delete(member.name);
      await waitFor(`the processes of ${name} to die`, 5_000, async () => (pids.some(processAlive) ? undefined : true));
      return { name, killedAt };
    };

    return { url: multiHostUrl(members, "primary"), replicaUrl: multiHostUrl(members, "prefer-standby"), members, dir, leader, killLeader, waitHealthy, stop };
  } catch (error) {
    // The folder goes with stop(): what Patroni said comes along in the error.
    const logs = names.map((name) => `--- ${name}.patroni.log\n${logTail(join(dir, `${name}.patroni.log`))}`).join("\n");
    stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${logs}`, { cause: error });
  }
}

function logTail(path: string, lines = 15): string {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(none)";
  }
}

/** Alive and not a zombie (a killed orphan stays one until PID 1 reaps it). */
function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return false;
  }
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await sleep(250);
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
}

/** An acknowledged write of a failover test: when it was sent and when its acknowledgement came. */
export interface TimedAck {
  sentAt: number;
  ackedAt: number;
}

/**
 * Kills the leader while the test's writers keep adding to `acks`, then waits until writes are back
 * (the first write sent after the kill acknowledged, and `afterResumeMs` more of writing) or
 * `windowMs` after the kill. The kill, and that first write after it (undefined: none came back).
 */
export async function killLeaderUntilWritesResume(cluster: PgCluster, acks: readonly TimedAck[], { windowMs, afterResumeMs }: { windowMs: number; afterResumeMs: number }): Promise<{ killed: KilledLeader; resumed: () => TimedAck | undefined }> {
  const killed = await cluster.killLeader();
  const resumed = () => acks.find((ack) => ack.sentAt >= killed.killedAt);
  for (;;) {
    const first = resumed();
    const now = Date.now();
    if (first ? now >= first.ackedAt + afterResumeMs : now >= killed.killedAt + windowMs) return { killed, resumed };
    await sleep(100);
  }
}

/**
 * Waits until every standby has replayed the primary's WAL as it stands now (a test's migrations, say),
 * so that a standby opened next is up to date; throws after `timeoutMs`.
 */
export async function waitForStandbysToCatchUp(cluster: PgCluster, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const primary = postgres(cluster.url, { max: 1, onnotice: () => {} });
  try {
    const lsn = (await primary<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`)[0]!.lsn;
    const leader = await cluster.leader();
    for (const member of cluster.members.filter((each) => each.name !== leader)) {
      const standby = postgres(multiHostUrl([member], "standby"), { max: 1, onnotice: () => {} });
      try {
        while (!(await standby<{ caught: boolean }[]>`SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS caught`)[0]!.caught) {
          if (Date.now() > deadline) throw new Error(`standby ${member.name} did not replay the primary's WAL up to ${lsn} within ${timeoutMs} ms`);
          await sleep(50);
        }
      } finally {
        await standby.end();
      }
    }
  } finally {
    await primary.end();
  }
}
