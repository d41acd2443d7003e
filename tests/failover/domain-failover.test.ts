import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDatabase } from "@/db/client";
import { connectPostgres, openPostgres } from "@/db/pg/client";
import { events, signups } from "@/db/schema";
import { statusActionAnswer } from "@/lib/api/write-answers";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { signupJsonPage } from "@/lib/domain/signups/queries";
import { runStatusWrite, type StatusWriteResult } from "@/lib/domain/signups/status-write";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { killLeaderUntilWritesResume, startCluster, waitForStandbysToCatchUp, type PgCluster } from "@/tests/support/pg-cluster";

// Issue 34, item 4, through the app: its database opened as the server opens it (db/pg/client.ts,
// migrations included) on the multi-host URL (target_session_attrs=primary); 8 callers join a waitlist
// and invite signups (the domain functions behind POST /v1/waitlist/{id}/signup and its /invite)
// while the leader's postmaster, Patroni and etcd member are SIGKILLed; a reader pages the signups as
// GET /v1/waitlist/{id}/signup does, on the standby URL. Writes must resume within 20 s, every
// acknowledged join and invitation must be on the new primary, and every change must have exactly
// one event (the outbox the webhooks read).

const CALLERS = 8;
/** One operation in this many is an invitation of a signup the caller saw join; the others are joins. */
const INVITE_EVERY = 7;
const WARM_UP_MS = 3_000;
const RESUME_LIMIT_MS = 20_000;
/** Writing stops at the latest this long after the kill, resumed or not. */
const WRITE_WINDOW_MS = 30_000;
/** Once writes resumed, how long they go on. */
const WRITE_AFTER_RESUME_MS = 3_000;
const PAUSE_MS = 10;
const RETRY_PAUSE_MS = 100;
const READ_PAUSE_MS = 20;
const ACTOR = { keyId: "failover-test", keyName: "failover test" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Ack {
  kind: "join" | "invite";
  signupId: number;
  email: string;
  sentAt: number;
  ackedAt: number;
}

interface Run {
  stop: boolean;
  acks: Ack[];
  failed: Map<string, number>;
}

function noteFailure(run: Run, error: unknown): void {
  const kind = error instanceof Error ? ((error as { code?: string }).code ?? error.message.slice(0, 60)) : String(error);
  run.failed.set(kind, (run.failed.get(kind) ?? 0) + 1);
}

/** One caller: joins with a new address each time and now and then invites one it saw join; a failed call is not retried (it may or may not have committed). */
async function caller(db: AppDatabase, waitlistId: string, client: number, run: Run): Promise<void> {
  const joined: { signupId: number; email: string }[] = [];
  for (let seq = 0; !run.stop; seq++) {
    const sentAt = Date.now();
    const invited = seq % INVITE_EVERY === INVITE_EVERY - 1 ? joined.shift() : undefined;
    try {
      if (invited) {
        const outcome = await runStatusWrite({ actor: ACTOR, action: "invite", selection: { waitlistId, emails: [invited.email] }, recorded: {} }, statusActionAnswer, db);
        if (!("answer" in outcome)) throw new Error("a recorded status write answered with counts alone");
        const result = JSON.parse(outcome.answer.body) as StatusWriteResult;
        if (result.changed !== 1) throw new Error(`the invitation of ${invited.email} changed ${result.changed}`);
        run.acks.push({ kind: "invite", ...invited, sentAt, ackedAt: Date.now() });
      } else {
        const email = `c${client}-${seq}@failover.example`;
        const outcome = await joinWaitlist({ waitlistId, email, customInputs: [] }, db);
        if (!outcome.created) throw new Error(`${email} was already on the list`);
        run.acks.push({ kind: "join", signupId: outcome.signup.id, email, sentAt, ackedAt: Date.now() });
        joined.push({ signupId: outcome.signup.id, email });
      }
      await sleep(PAUSE_MS);
    } catch (error) {
      noteFailure(run, error);
      await sleep(RETRY_PAUSE_MS);
    }
  }
}

interface Reads {
  stop: boolean;
  ok: number;
  failed: number;
  longestGapMs: number;
}

async function reader(db: AppDatabase, waitlistId: string, reads: Reads): Promise<void> {
  let lastOk = Date.now();
  while (!reads.stop) {
    try {
      await signupJsonPage({ scope: { waitlistId }, limit: 50 }, db);
      const now = Date.now();
      reads.longestGapMs = Math.max(reads.longestGapMs, now - lastOk);
      lastOk = now;
      reads.ok++;
    } catch {
      reads.failed++;
    }
    await sleep(READ_PAUSE_MS);
  }
}

/** Per signup, how many events of each type it has. */
function eventCounts(rows: { signupId: number | null; type: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { signupId, type } of rows) counts.set(`${signupId} ${type}`, (counts.get(`${signupId} ${type}`) ?? 0) + 1);
  return counts;
}

describe("PostgreSQL failover under Patroni (the app's domain)", () => {
  let cluster: PgCluster | undefined;
  let db: AppDatabase | undefined;
  let standby: AppDatabase | undefined;
  const startedAt = Date.now();
  let upAfterMs = 0;
  // What a lost connection may throw outside any call (postgres.js 3.4.9 unpatched: a TypeError from its write timer).
  const uncaught: unknown[] = [];
  const noteUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    process.on("uncaughtException", noteUncaught);
    process.env.SECRETS_KEY ??= "d".repeat(64);
    cluster = await startCluster();
    upAfterMs = Date.now() - startedAt;
    db = await openPostgres(cluster.url);
    await waitForStandbysToCatchUp(cluster);
    // Opened as a server opens it: a standby, up to date, is checked rather than migrated.
    standby = connectPostgres(cluster.replicaUrl);
  }, 300_000);

  afterAll(async () => {
    process.off("uncaughtException", noteUncaught);
    await standby?.$engine.close();
    await db?.$engine.close();
    cluster?.stop();
    console.log(`domain failover: whole file took ${((Date.now() - startedAt) / 1000).toFixed(1)} s (cluster up after ${(upAfterMs / 1000).toFixed(1)} s)`);
  });

  it("resumes joins and status actions within 20 s, loses none acknowledged, and records each change's event once", async () => {
    // The reader's connections are on a standby (the reads under test are not the primary's).
    expect(await standby!.values(sql`SELECT pg_is_in_recovery()`)).toEqual([[1]]);
    const waitlist = await createWaitlist({ name: "Failover", website: "https://failover.example" }, db);
    await updateJoinSettings(waitlist.id, { joining: "open" }, "cli", db);

    const run: Run = { stop: false, acks: [], failed: new Map() };
    const reads: Reads = { stop: false, ok: 0, failed: 0, longestGapMs: 0 };
    const callers = Array.from({ length: CALLERS }, (_, client) => caller(db!, waitlist.id, client, run));
    const reading = reader(standby!, waitlist.id, reads);

    await sleep(WARM_UP_MS);
    const { killed, resumed: resumedAck } = await killLeaderUntilWritesResume(cluster!, run.acks, { windowMs: WRITE_WINDOW_MS, afterResumeMs: WRITE_AFTER_RESUME_MS });
    run.stop = true;
    await Promise.all(callers);
    reads.stop = true;
    await reading;

    // Read back from the new primary (the multi-host URL only connects to one).
    const rows = await db!.select({ id: signups.id, email: signups.email, status: signups.status }).from(signups).where(eq(signups.waitlistId, waitlist.id));
    const eventRows = await db!.select({ signupId: events.signupId, type: events.type }).from(events).where(eq(events.waitlistId, waitlist.id));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const counts = eventCounts(eventRows);
    const joins = run.acks.filter((ack) => ack.kind === "join");
    const invites = run.acks.filter((ack) => ack.kind === "invite");
    const lost = [
      ...joins.filter((ack) => byId.get(ack.signupId)?.email !== ack.email),
      ...invites.filter((ack) => byId.get(ack.signupId)?.status !== "invited"),
    ];
    // Every signup on the list (acknowledged or not: an unanswered call may have committed) has its
    // one signup.created, and one signup.invited exactly when it is invited; no event names another.
    const expected = new Map<string, number>();
    for (const row of rows) {
      expected.set(`${row.id} signup.created`, 1);
      if (row.status === "invited") expected.set(`${row.id} signup.invited`, 1);
    }
    const missing = [...expected].filter(([key]) => !counts.has(key)).map(([key]) => key);
    const wrong = [...counts].filter(([key, count]) => count !== expected.get(key)).map(([key, count]) => `${key} ×${count}`);

    const resumed = resumedAck();
    const resumeMs = resumed ? resumed.ackedAt - killed.killedAt : undefined;
    const failures = [...run.failed].map(([kind, count]) => `${kind} ${count}`).join(", ");
    console.log(
      `domain failover: killed ${killed.name}; writes resumed after ${resumeMs === undefined ? "never" : `${(resumeMs / 1000).toFixed(2)} s`}; ` +
        `acknowledged ${joins.length} joins + ${invites.length} status changes, lost ${lost.length}; events missing ${missing.length}, doubled or stray ${wrong.length}; ` +
        `failed writes ${[...run.failed.values()].reduce((sum, count) => sum + count, 0)} (${failures || "none"}); ` +
        `standby reads ${reads.ok} answered, ${reads.failed} failed, longest gap ${reads.longestGapMs} ms; uncaught errors ${uncaught.length}`,
    );

    expect(resumeMs).toBeDefined();
    expect(resumeMs!).toBeLessThan(RESUME_LIMIT_MS);
    expect(joins.filter((ack) => ack.sentAt < killed.killedAt).length).toBeGreaterThan(0);
    expect(invites.length).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    expect(missing).toEqual([]);
    expect(wrong).toEqual([]);
    expect(reads.ok).toBeGreaterThan(0);
    expect(uncaught).toEqual([]);
  }, 120_000);
});
