import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killLeaderUntilWritesResume, startCluster, type PgCluster } from "@/tests/support/pg-cluster";

// Issue 34, item 4, at the driver level: a stream of INSERTs from 8 clients through the multi-host URL
// (target_session_attrs=primary) while the leader's postmaster, Patroni and etcd member are SIGKILLed.
// Writes must resume on another node within 20 s and every acknowledged row must be on the new leader;
// a reader on the standby URL reports how often, and for how long, reads failed.

const WRITERS = 8;
const WRITE_PAUSE_MS = 10;
const WARM_UP_MS = 3_000;
const RESUME_LIMIT_MS = 20_000;
/** Writing stops at the latest this long after the kill, resumed or not. */
const WRITE_WINDOW_MS = 30_000;
/** Once writes resumed, how long they go on (to show they keep going, not just one). */
const WRITE_AFTER_RESUME_MS = 3_000;
const READ_PAUSE_MS = 20;
const RETRY_PAUSE_MS = 100;

// postgres.js's default reconnect backoff grows as 3^retries / 100 s up to 20 s, shared by every
// connection of a client: a dozen failed attempts during the election would push the reconnect past the
// 20 s budget. A flat 0.1 s keeps it trying. connect_timeout bounds an attempt at a node that does not answer.
const CLIENT_OPTIONS = { max: 1, backoff: () => 0.1, connect_timeout: 2, idle_timeout: 0, onnotice: () => {} } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Ack {
  id: string;
  sentAt: number;
  ackedAt: number;
}

interface Run {
  stop: boolean;
  acks: Ack[];
  writeFailures: number;
  /** Per error code: how many, and when the first and the last happened (ms since epoch). */
  failureKinds: Map<string, { count: number; first: number; last: number }>;
}

function noteFailure(run: Run, error: unknown): void {
  run.writeFailures++;
  const kind = error instanceof Error ? ((error as { code?: string }).code ?? error.message.slice(0, 60)) : String(error);
  const now = Date.now();
  const seen = run.failureKinds.get(kind) ?? { count: 0, first: now, last: now };
  run.failureKinds.set(kind, { count: seen.count + 1, first: seen.first, last: now });
}

async function writer(url: string, client: number, run: Run): Promise<void> {
  const sql = postgres(url, CLIENT_OPTIONS);
  let seq = 0;
  try {
    while (!run.stop) {
      const sentAt = Date.now();
      try {
        const [row] = await sql<{ id: string }[]>`insert into failover_writes (client, seq) values (${client}, ${seq}) returning id`;
        run.acks.push({ id: row!.id, sentAt, ackedAt: Date.now() });
        seq++;
        await sleep(WRITE_PAUSE_MS);
      } catch (error) {
        // Not acknowledged: the row may or may not be there, and counts for nothing. A new seq keeps
        // the retry from colliding with a row that did commit.
        seq++;
        noteFailure(run, error);
        await sleep(RETRY_PAUSE_MS);
      }
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
}

interface Reads {
  stop: boolean;
  ok: number;
  failed: number;
  longestGapMs: number;
}

async function reader(url: string, reads: Reads): Promise<void> {
  const sql = postgres(url, CLIENT_OPTIONS);
  let lastOk = Date.now();
  try {
    while (!reads.stop) {
      try {
        await sql`select count(*) from failover_writes`;
        const now = Date.now();
        reads.longestGapMs = Math.max(reads.longestGapMs, now - lastOk);
        lastOk = now;
        reads.ok++;
      } catch {
        reads.failed++;
      }
      await sleep(READ_PAUSE_MS);
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
}

describe("PostgreSQL failover under Patroni (driver level)", () => {
  let cluster: PgCluster | undefined;
  const startedAt = Date.now();
  let upAfterMs = 0;

  beforeAll(async () => {
    cluster = await startCluster();
    upAfterMs = Date.now() - startedAt;
  }, 300_000);

  afterAll(() => {
    cluster?.stop();
    console.log(`failover: whole file took ${((Date.now() - startedAt) / 1000).toFixed(1)} s (cluster up after ${(upAfterMs / 1000).toFixed(1)} s)`);
  });

  it("resumes writes on another node within 20 s with no acknowledged write lost", async () => {
    const { url, replicaUrl } = cluster!;
    const setup = postgres(url, CLIENT_OPTIONS);
    await setup`create table failover_writes (id bigint generated always as identity primary key, client integer not null, seq integer not null, unique (client, seq))`;
    await setup.end();

    const run: Run = { stop: false, acks: [], writeFailures: 0, failureKinds: new Map() };
    const reads: Reads = { stop: false, ok: 0, failed: 0, longestGapMs: 0 };
    const writers = Array.from({ length: WRITERS }, (_, client) => writer(url, client, run));
    const reading = reader(replicaUrl, reads);

    await sleep(WARM_UP_MS);
    const { killed, resumed: resumedAck } = await killLeaderUntilWritesResume(cluster!, run.acks, { windowMs: WRITE_WINDOW_MS, afterResumeMs: WRITE_AFTER_RESUME_MS });
    run.stop = true;
    await Promise.all(writers);
    reads.stop = true;
    await reading;

    const check = postgres(url, CLIENT_OPTIONS);
    const [server] = await check<{ port: number }[]>`select inet_server_port() as port`;
    const present = new Set((await check<{ id: string }[]>`select id from failover_writes`).map((row) => row.id));
    await check.end();
    const newLeader = cluster!.members.find((member) => member.pgPort === server!.port)?.name;
    const lost = run.acks.filter((ack) => !present.has(ack.id)).map((ack) => ack.id);
    const resumed = resumedAck();
    const resumeMs = resumed ? resumed.ackedAt - killed.killedAt : undefined;
    const afterKill = run.acks.filter((ack) => ack.sentAt >= killed.killedAt).length;

    console.log(
      [
        `failover: killed leader ${killed.name}, writes went on at ${newLeader}`,
        `  time to resume: ${resumeMs === undefined ? "never" : `${(resumeMs / 1000).toFixed(2)} s`} (limit ${RESUME_LIMIT_MS / 1000} s)`,
        `  acknowledged: ${run.acks.length} (${run.acks.length - afterKill} before the kill, ${afterKill} after), lost: ${lost.length}`,
        `  failed writes (not acknowledged): ${run.writeFailures}`,
        ...[...run.failureKinds].map(([kind, seen]) => `    ${kind}: ${seen.count}, from ${seen.first - killed.killedAt} to ${seen.last - killed.killedAt} ms after the kill`),
        `  reads on the standby URL: ${reads.ok} answered, ${reads.failed} failed, longest gap ${reads.longestGapMs} ms`,
      ].join("\n"),
    );

    expect(newLeader).toBeDefined();
    expect(newLeader).not.toBe(killed.name);
    expect(run.acks.length - afterKill).toBeGreaterThan(0);
    expect(resumeMs).toBeDefined();
    expect(resumeMs!).toBeLessThan(RESUME_LIMIT_MS);
    expect(lost).toEqual([]);
  }, 120_000);
});
