import { openDatabase } from "@/db/client";
import { getInvitationEmail } from "@/lib/domain/emails/invitation";
import { mintInviteToken } from "@/lib/domain/invitations/token";
import { createApiKey, REDEEM_ROLE } from "@/lib/domain/keys/queries";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { autocannon, type AutocannonRequest } from "./load/autocannon";
import { cpuSeconds } from "./measure";
import { row, type Row } from "./report";
import { measureApi } from "./search-load";
import type { Bench } from "./scenarios";

// Issue 32: a product redeeming invite links (POST /v1/invitations/{token}/redeem) at a steady 200 a
// second on one worker against the big list, each with a token of its own, first alone and then with
// the /v1 reads of the other scenarios meanwhile; checked exactly against the database afterwards.

const RATE = 200;
const TARGET_REDEEM_P99_MS = 20;
const TARGET_READ_P99_MS = 50;
const WARM_UP_SECONDS = 3;

export async function redeemLoad(bench: Bench): Promise<Row[]> {
  const scenario = `invite links redeemed at ${RATE}/s (one worker, ${bench.scaleLabel} list)`;
  const db = openDatabase(bench.databasePath);
  try {
    const waitlistId = bench.bigWaitlistId;
    const headers = { authorization: `Bearer ${createApiKey({ name: "bench product", roles: [REDEEM_ROLE] }, db).key}` };
    // Tokens for every redeem the three runs can send (autocannon may send a little past its time), plus a margin.
    const needed = RATE * (WARM_UP_SECONDS + 2 * bench.seconds) + 2 * RATE;
    const invited = applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId, verified: true }, limit: needed }, withSignups: true }, db).signups;
    if (invited.length !== needed) throw new Error(`${scenario}: ${invited.length} invited, ${needed} needed`);
    const expiryDays = getInvitationEmail(waitlistId, db).inviteExpiryDays;
    const tokens = invited.map((signup) => mintInviteToken(waitlistId, signup.id, signup.statusChangedAt!.getTime(), expiryDays, db));
    let sent = 0;
    const request: AutocannonRequest = {
      method: "POST",
      path: "/v1/invitations/-/redeem",
      headers,
      setupRequest: (each) => {
        if (sent === tokens.length) throw new Error(`${scenario}: out of tokens`);
        return { ...each, path: `/v1/invitations/${tokens[sent++]}/redeem` };
      },
    };
    // An open load: RATE redeems a second whatever the answers' pace, over enough connections that none waits for a free one.
    const redeem = (seconds: number) => autocannon({ url: bench.app.origin, connections: 16, overallRate: RATE, duration: seconds, requests: [request], timeout: 30 });
    await redeem(WARM_UP_SECONDS);
    await measureApi(bench, 2); // warm-up
    const quiet = await measureApi(bench, 5);
    // The server's CPU while redeeming alone: all its threads, and its serving (main) thread, where the redeems are written.
    const cpu = () => ({ all: cpuSeconds(bench.app.pid), main: cpuSeconds(bench.app.pid, { mainThread: true }) });
    const cpuBefore = cpu();
    const alone = await redeem(bench.seconds);
    const cpuAfter = cpu();
    const msPerRedeem = (which: "all" | "main") => ((cpuAfter[which] - cpuBefore[which]) * 1000) / alone["2xx"];
    const [loaded, reads] = await Promise.all([redeem(bench.seconds), measureApi(bench, bench.seconds)]);
    for (const each of [alone, loaded]) {
      if (each.errors > 0 || each.timeouts > 0 || each.non2xx > 0) throw new Error(`${scenario}: ${each.errors} errors, ${each.timeouts} timeouts, ${each.non2xx} non-2xx answers`);
    }

    // Exact: each sent token's signup completed once, with one signup.completed event; the others still invited.
    const ids = JSON.stringify(invited.map((signup) => signup.id));
    const count = (sql: string) => (db.$client.prepare(sql).get(ids) as { n: number }).n;
    // In one read transaction, one snapshot: redeems autocannon stopped waiting for may still commit meanwhile.
    const { completed, events, distinct } = db.$client.transaction(() => ({
      completed: count("SELECT count(*) AS n FROM signups WHERE id IN (SELECT value FROM json_each(?)) AND status = 'completed'"),
      events: count("SELECT count(*) AS n FROM events WHERE signup_id IN (SELECT value FROM json_each(?)) AND type = 'signup.completed'"),
      distinct: count("SELECT count(DISTINCT signup_id) AS n FROM events WHERE signup_id IN (SELECT value FROM json_each(?)) AND type = 'signup.completed'"),
    }))();
    const answered = alone["2xx"] + loaded["2xx"];
    if (completed < answered || completed > sent || events !== completed || distinct !== completed) {
      throw new Error(`${scenario}: ${sent} redeems sent, ${answered} measured as answered, ${completed} signups completed, ${events} signup.completed events for ${distinct} signups`);
    }
    bench.log(`  alone: ${alone["2xx"]} redeems, ${alone.requests.average.toFixed(0)}/s, p50 ${alone.latency.p50} ms, p99 ${alone.latency.p99} ms, max ${alone.latency.max} ms; server CPU ${msPerRedeem("all").toFixed(2)} ms a redeem, ${msPerRedeem("main").toFixed(2)} ms of it on the serving thread`);
    bench.log(`  with /v1 reads: ${loaded.requests.average.toFixed(0)}/s, p99 ${loaded.latency.p99} ms, max ${loaded.latency.max} ms; ${reads.answered} reads, p99 ${reads.p99.toFixed(1)} ms (quiet ${quiet.p99.toFixed(1)} ms), max ${reads.max.toFixed(0)} ms`);
    bench.log(`  ${sent} tokens sent, ${completed} signups completed, one event each`);
    return [
      row(scenario, "redeems answered", "redeems/s", alone.requests.average, null, { appAtLeast: RATE * 0.95 }),
      row(scenario, "redeem p99 latency", "ms", alone.latency.p99, null, { appBelow: TARGET_REDEEM_P99_MS }),
      // The server's own cost, whatever share of the cores the machine gives it.
      row(scenario, "server CPU per redeem", "ms", msPerRedeem("all"), null),
      row(scenario, "serving thread's CPU per redeem", "ms", msPerRedeem("main"), null),
      row(scenario, "/v1 read p99 latency, quiet server", "ms", quiet.p99, null),
      row(scenario, "redeem p99 latency while /v1 reads", "ms", loaded.latency.p99, null, { appBelow: TARGET_REDEEM_P99_MS }),
      row(scenario, "/v1 read p99 latency during the redeems", "ms", reads.p99, null, { appBelow: TARGET_READ_P99_MS }),
    ];
  } finally {
    db.$client.close();
  }
}
