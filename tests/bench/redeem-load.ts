import { openDatabase } from "@/db/client";
import { getInvitationEmail } from "@/lib/domain/emails/invitation";
import { mintInviteToken } from "@/lib/domain/invitations/token";
import { createApiKey, REDEEM_ROLE } from "@/lib/domain/keys/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { autocannon, type AutocannonRequest } from "./load/autocannon";
import { pacedLoad } from "./load/paced";
import { cpuSeconds } from "./measure";
import { row, type Row } from "./report";
import { measureApi } from "./search-load";
import type { Bench } from "./scenarios";

// Issue 32: a product redeeming invite links (POST /v1/invitations/{token}/redeem) at a steady 200 a
// second on one worker against the big list, each with a token of its own, first alone and then with
// the /v1 reads of the other scenarios meanwhile, then as autocannon's `overallRate` sends the same
// rate (16 at once each second, load/paced.ts); checked exactly against the database afterwards.

const RATE = 200;
const TARGET_REDEEM_P99_MS = 20;
const TARGET_READ_P99_MS = 50;
const WARM_UP_SECONDS = 3;

export async function redeemLoad(bench: Bench): Promise<Row[]> {
  const scenario = `invite links redeemed at ${RATE}/s (one worker, ${bench.scaleLabel} list)`;
  const db = openDatabase(bench.databasePath);
  try {
    const waitlistId = bench.bigWaitlistId;
    const headers = { authorization: `Bearer ${(await createApiKey({ name: "bench product", roles: [REDEEM_ROLE] }, db)).key}` };
    // Tokens for every redeem the three runs can send (autocannon may send a little past its time), plus a margin.
    const needed = RATE * (WARM_UP_SECONDS + 3 * bench.seconds) + 2 * RATE;
    const invited = (await applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId, verified: true }, limit: needed }, withSignups: true }, db)).signups;
    if (invited.length !== needed) throw new Error(`${scenario}: ${invited.length} invited, ${needed} needed`);
    const expiryDays = (await getInvitationEmail(waitlistId, db)).inviteExpiryDays;
    // One after another: the first may create the signing secret.
    const tokens: string[] = [];
    for (const signup of invited) tokens.push(await mintInviteToken(waitlistId, signup.id, signup.statusChangedAt!.getTime(), expiryDays, db));
    let sent = 0;
    const nextToken = () => {
      if (sent === tokens.length) throw new Error(`${scenario}: out of tokens`);
      return tokens[sent++]!;
    };
    // A steady open load (load/paced.ts): RATE redeems a second, evenly spaced, each timed from when it was due.
    const redeem = (seconds: number) => pacedLoad({ origin: bench.app.origin, rate: RATE, seconds, next: () => ({ method: "POST", path: `/v1/invitations/${nextToken()}/redeem`, headers }) });
    // The same rate as autocannon sends it (`overallRate`): each of 16 connections its 12 or 13 of the second back to back, so 16 at once.
    const request: AutocannonRequest = { method: "POST", path: "/v1/invitations/-/redeem", headers, setupRequest: (each) => ({ ...each, path: `/v1/invitations/${nextToken()}/redeem` }) };
    const bursts = () => autocannon({ url: bench.app.origin, connections: 16, overallRate: RATE, duration: bench.seconds, requests: [request], timeout: 30 });
    await redeem(WARM_UP_SECONDS);
    await measureApi(bench, 2); // warm-up
    const quiet = await measureApi(bench, 5);
    // The server's CPU while redeeming alone: all its threads, and its serving (main) thread.
    const cpu = () => ({ all: cpuSeconds(bench.app.pid), main: cpuSeconds(bench.app.pid, { mainThread: true }) });
    const cpuBefore = cpu();
    const alone = await redeem(bench.seconds);
    const cpuAfter = cpu();
    const msPerRedeem = (which: "all" | "main") => ((cpuAfter[which] - cpuBefore[which]) * 1000) / alone.ok;
    const [loaded, reads] = await Promise.all([redeem(bench.seconds), measureApi(bench, bench.seconds)]);
    const burst = await bursts();
    for (const each of [alone, loaded]) {
      if (Object.keys(each.failed).length > 0) throw new Error(`${scenario}: failed redeems ${JSON.stringify(each.failed)}`);
    }
    if (burst.errors > 0 || burst.timeouts > 0 || burst.non2xx > 0) throw new Error(`${scenario}: in bursts, ${burst.errors} errors, ${burst.timeouts} timeouts, ${burst.non2xx} non-2xx answers`);

    // Exact: each sent token's signup completed once, with one signup.completed event; the others still invited.
    const ids = JSON.stringify(invited.map((signup) => signup.id));
    const count = (sql: string) => (db.$client.prepare(sql).get(ids) as { n: number }).n;
    // In one read transaction, one snapshot: redeems autocannon stopped waiting for may still commit meanwhile.
    const { completed, events, distinct } = db.$client.transaction(() => ({
      completed: count("SELECT count(*) AS n FROM signups WHERE id IN (SELECT value FROM json_each(?)) AND status = 'completed'"),
      events: count("SELECT count(*) AS n FROM events WHERE signup_id IN (SELECT value FROM json_each(?)) AND type = 'signup.completed'"),
      distinct: count("SELECT count(DISTINCT signup_id) AS n FROM events WHERE signup_id IN (SELECT value FROM json_each(?)) AND type = 'signup.completed'"),
    }))();
    const answered = alone.ok + loaded.ok + burst["2xx"];
    if (completed < answered || completed > sent || events !== completed || distinct !== completed) {
      throw new Error(`${scenario}: ${sent} redeems sent, ${answered} measured as answered, ${completed} signups completed, ${events} signup.completed events for ${distinct} signups`);
    }
    bench.log(`  alone: ${alone.ok} redeems, ${alone.perSecond.toFixed(0)}/s, p50 ${alone.p50.toFixed(1)} ms, p99 ${alone.p99.toFixed(1)} ms, max ${alone.max.toFixed(0)} ms; server CPU ${msPerRedeem("all").toFixed(2)} ms a redeem, ${msPerRedeem("main").toFixed(2)} ms of it on the serving thread`);
    bench.log(`  with /v1 reads: ${loaded.perSecond.toFixed(0)}/s, p99 ${loaded.p99.toFixed(1)} ms, max ${loaded.max.toFixed(0)} ms; ${reads.answered} reads, p99 ${reads.p99.toFixed(1)} ms (quiet ${quiet.p99.toFixed(1)} ms), max ${reads.max.toFixed(0)} ms`);
    bench.log(`  in autocannon's per-second bursts: ${burst["2xx"]} redeems, p50 ${burst.latency.p50} ms, p99 ${burst.latency.p99} ms, max ${burst.latency.max} ms`);
    bench.log(`  ${sent} tokens sent, ${completed} signups completed, one event each`);
    return [
      row(scenario, "redeems answered", "redeems/s", alone.perSecond, null, { appAtLeast: RATE * 0.95 }),
      row(scenario, "redeem p99 latency", "ms", alone.p99, null, { appBelow: TARGET_REDEEM_P99_MS }),
      // The server's own cost, whatever share of the cores the machine gives it.
      row(scenario, "server CPU per redeem", "ms", msPerRedeem("all"), null),
      row(scenario, "serving thread's CPU per redeem", "ms", msPerRedeem("main"), null),
      row(scenario, "/v1 read p99 latency, quiet server", "ms", quiet.p99, null),
      row(scenario, "redeem p99 latency while /v1 reads", "ms", loaded.p99, null, { appBelow: TARGET_REDEEM_P99_MS }),
      row(scenario, "/v1 read p99 latency during the redeems", "ms", reads.p99, null, { appBelow: TARGET_READ_P99_MS }),
      row(scenario, "redeem p99 latency, 16 at once each second", "ms", burst.latency.p99, null),
    ];
  } finally {
    db.$client.close();
  }
}
