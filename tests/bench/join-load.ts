import type { AppDatabase } from "@/db/client";
import { signupPosition } from "@/lib/domain/joining/position";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { setRankingRule } from "@/lib/domain/ranking/apply";
import { createApiKey, JOIN_ROLE } from "@/lib/domain/keys/queries";
import { autocannon, type AutocannonRequest } from "./load/autocannon";
import { pacedLoad } from "./load/paced";
import { cpuSeconds, percentile } from "./measure";
import { seededRandom } from "./random";
import { row, type Row } from "./report";
import { measureApi } from "./search-load";
import type { Bench } from "./scenarios";

// Launch day (issue 24): joins through POST /v1/waitlist/{id}/signup on one worker, sustained, with the
// /v1 reads of another client meanwhile; then a burst of 10,000 joins from 500 concurrent clients, a
// tenth of them retries of an address already sent (some arriving while the first is in flight),
// checked exactly against the database: signups, counts, positions, events.

const TARGET_JOINS_PER_SECOND = 1000;
const TARGET_P99_MS = 50;
const BURST = 10_000;
const BURST_CLIENTS = 500;
const RETRIED_SHARE = 0.1;

/** A 201's new signup, or a 200's "already on the list" (which names nothing stored about the signup). */
interface Joined {
  id?: string;
  referral_code?: string;
  position?: number | null;
  email?: string;
  already_on_list?: true;
}

/** A new open waitlist (no form fields) and a waitlist:join key, on the bench database. */
async function openWaitlist(bench: Bench, db: AppDatabase) {
  const waitlistId = await bench.newWaitlist();
  await updateJoinSettings(waitlistId, { joining: "open" }, "cli", db);
  return waitlistId;
}

/** The joins of `emails`, in order (each with its referral code, if any), sent by `clients` concurrent clients; every answer kept. */
async function burst(origin: string, waitlistId: string, headers: Record<string, string>, emails: string[], clients: number, codes: (string | undefined)[] = []) {
  const answers: { email: string; status: number; body: Joined; ms: number }[] = new Array(emails.length);
  let next = 0;
  const client = async () => {
    while (next < emails.length) {
      const index = next++;
      const started = performance.now();
      const send = () =>
        fetch(`${origin}/v1/waitlist/${waitlistId}/signup`, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify({ email: emails[index], ...(codes[index] && { referral_code: codes[index] }) }),
        });
      // A kept-alive socket the server closed while it sat idle (between two bursts) fails before the
      // request reaches the server: sent again once. Had the server taken it, the second answer would be
      // "already on the list" and the exact counts below would say so.
      const response = await send().catch((error: unknown) => {
        if ((error as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw error;
        return send();
      });
      const body = (await response.json()) as Joined & { detail?: string };
      if (response.status !== 201 && response.status !== 200) throw new Error(`burst join: ${response.status} ${body.detail}`);
      answers[index] = { email: emails[index]!, status: response.status, body, ms: performance.now() - started };
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  return { answers, seconds: (performance.now() - started) / 1000 };
}

/** The number `sql` (one row, one column `n`, one `?`: the waitlist) counts, on either engine (PostgreSQL's count is a bigint). */
async function countOf(db: AppDatabase, sql: string, waitlistId: string): Promise<number> {
  return Number((await db.$engine.prepare(sql).get<{ n: number | string }>([waitlistId]))!.n);
}

/** 90 % new addresses and 10 % retries of one of them in another case, each retry soon after its first (often while it is in flight). */
function burstEmails(count: number): { emails: string[]; unique: number } {
  const unique = Math.round(count * (1 - RETRIED_SHARE));
  const keyed: [number, string][] = Array.from({ length: unique }, (_, index) => [index, `burst.${index}@example.com`]);
  const step = Math.floor(unique / (count - unique));
  // Within the next few hundred requests: with 500 clients, many retries race their first.
  for (let retry = 0; retry < count - unique; retry++) keyed.push([retry * step + 1 + (retry % 400) - 0.5, `BURST.${retry * step}@EXAMPLE.com`]);
  return { emails: keyed.sort((a, b) => a[0] - b[0]).map(([, email]) => email), unique };
}

export async function joinLoad(bench: Bench): Promise<Row[]> {
  const scenario = `joins through /v1 (one worker, ${bench.scaleLabel} dataset)`;
  const db = bench.db;
  const joinKey = { authorization: `Bearer ${(await createApiKey({ name: "bench join", roles: [JOIN_ROLE] }, db)).key}` };

  // Sustained: autocannon keeps `connections` joins in flight, each with a new address.
  const sustainedId = await openWaitlist(bench, db);
  let sent = 0;
  const path = `/v1/waitlist/${sustainedId}/signup`;
  const request: AutocannonRequest = {
    method: "POST",
    path,
    headers: { ...joinKey, "content-type": "application/json" },
    setupRequest: (each) => ({ ...each, body: JSON.stringify({ email: `sustained.${++sent}@example.com` }) }),
  };
  const sustain = (seconds = bench.seconds, origin = bench.app.origin) => autocannon({ url: origin, connections: bench.connections, duration: seconds, requests: [request], timeout: 30 });
  // Warm-up: the join threads start, their caches fill, the code is compiled.
  const warm = [await sustain(3), await sustain(3, bench.baseline.origin)];
  await measureApi(bench, 2); // warm-up
  const quiet = await measureApi(bench, 5);
  // First the joins alone, then on the baseline (the same group commit on the same writer thread
  // behind a bare node:http server: the floor of this SQL on this machine), then again on the app
  // with the /v1 client of the other scenarios reading in a closed loop meanwhile (it takes all the
  // CPU it can get: the joins then share the core with it).
  const cpuBefore = cpuSeconds(bench.app.pid);
  const alone = await sustain();
  const serverCpu = cpuSeconds(bench.app.pid) - cpuBefore;
  const baselineCpuBefore = cpuSeconds(bench.baseline.pid);
  const floor = await sustain(bench.seconds, bench.baseline.origin);
  const baselineCpu = cpuSeconds(bench.baseline.pid) - baselineCpuBefore;
  const [load, reads] = await Promise.all([sustain(), measureApi(bench, bench.seconds)]);
  for (const each of [alone, floor, load]) {
    if (each.errors > 0 || each.timeouts > 0 || each.non2xx > 0) throw new Error(`${scenario}: ${each.errors} errors, ${each.timeouts} timeouts, ${each.non2xx} non-2xx answers`);
  }
  // Launch day's TARGET_JOINS_PER_SECOND as a steady open load (load/paced.ts), on the app and on the baseline.
  const steady = async (origin: string) => {
    const result = await pacedLoad({ origin, rate: TARGET_JOINS_PER_SECOND, seconds: bench.seconds, next: () => ({ method: "POST", path, headers: request.headers, body: JSON.stringify({ email: `sustained.${++sent}@example.com` }) }) });
    if (Object.keys(result.failed).length > 0) throw new Error(`${scenario}: steady joins failed ${JSON.stringify(result.failed)}`);
    return result;
  };
  const steadyApp = await steady(bench.app.origin);
  const steadyFloor = await steady(bench.baseline.origin);
  const stored = await countOf(db, "SELECT count(*) AS n FROM signups WHERE waitlist_id = ?", sustainedId);
  // Every answered join is stored; autocannon stops counting with joins still in flight, which may be
  // stored too, but never more than were sent (each with an address of its own).
  const answered = [...warm, alone, floor, load].reduce((sum, each) => sum + each["2xx"], steadyApp.ok + steadyFloor.ok);
  if (stored < answered || stored > sent) throw new Error(`${scenario}: ${answered} joins answered, ${stored} signups stored`);
  bench.log(`  alone: ${alone["2xx"]} joins in ${alone.duration.toFixed(1)} s, ${alone.requests.average.toFixed(0)}/s, p50 ${alone.latency.p50} ms, p99 ${alone.latency.p99} ms; the server used ${serverCpu.toFixed(1)} CPU s: ${(alone["2xx"] / serverCpu).toFixed(0)} joins per CPU second`);
  bench.log(`  baseline: ${floor.requests.average.toFixed(0)}/s, p50 ${floor.latency.p50} ms, p99 ${floor.latency.p99} ms; ${(floor["2xx"] / baselineCpu).toFixed(0)} joins per CPU second`);
  bench.log(`  at ${TARGET_JOINS_PER_SECOND}/s steady: app p50 ${steadyApp.p50.toFixed(1)} ms, p99 ${steadyApp.p99.toFixed(1)} ms, max ${steadyApp.max.toFixed(0)} ms; baseline p50 ${steadyFloor.p50.toFixed(1)} ms, p99 ${steadyFloor.p99.toFixed(1)} ms, max ${steadyFloor.max.toFixed(0)} ms`);
  bench.log(`  with /v1 reads: ${load.requests.average.toFixed(0)} joins/s, p99 ${load.latency.p99} ms; ${reads.answered} reads, p99 ${reads.p99.toFixed(1)} ms (quiet ${quiet.p99.toFixed(1)} ms)`);

  // The burst.
  const burstId = await openWaitlist(bench, db);
  const { emails, unique } = burstEmails(BURST);
  const { answers, seconds } = await burst(bench.app.origin, burstId, joinKey, emails, BURST_CLIENTS);
  const created = answers.filter((answer) => answer.status === 201);
  const idOf = new Map(created.map((answer) => [answer.email.toLowerCase(), answer.body]));
  const problems: string[] = [];
  if (created.length !== unique) problems.push(`${created.length} answers 201, expected ${unique}`);
  for (const answer of answers.filter((each) => each.status === 200)) {
    const first = idOf.get(answer.email.toLowerCase());
    if (!first || answer.body.already_on_list !== true || answer.body.email !== answer.email || "id" in answer.body) problems.push(`the retry of ${answer.email} was not answered "already on the list" after its first join`);
  }
  const positions = created.map((answer) => answer.body.position!).sort((a, b) => a - b);
  if (positions.some((position, index) => position !== index + 1)) problems.push("the 201 positions are not exactly 1…n");
  const count = (sql: string) => countOf(db, sql, burstId);
  const signups = await count("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?");
  const counted = await count("SELECT coalesce(sum(count), 0) AS n FROM signup_counts WHERE waitlist_id = ?");
  const events = await count("SELECT count(*) AS n FROM events WHERE waitlist_id = ? AND type = 'signup.created'");
  const distinctEvents = await count("SELECT count(DISTINCT signup_id) AS n FROM events WHERE waitlist_id = ? AND type = 'signup.created'");
  for (const [what, value] of [["signups", signups], ["signup_counts", counted], ["signup.created events", events], ["signups with an event", distinctEvents]] as const) {
    if (value !== unique) problems.push(`${what}: ${value}, expected ${unique}`);
  }
  // Each signup's place now, by the query layer, is the one its join answered (nobody has left the line).
  for (const answer of created) if (await signupPosition(burstId, Number(answer.body.id), db) !== answer.body.position) problems.push(`signup ${answer.body.id}: position changed`);
  const times = answers.map((answer) => answer.ms);
  bench.log(`  burst: ${BURST} joins (${unique} addresses, ${BURST - unique} retries) from ${BURST_CLIENTS} clients in ${seconds.toFixed(1)} s; p99 ${percentile(times, 0.99).toFixed(0)} ms; ${problems.length === 0 ? "exact" : problems.slice(0, 5).join("; ")}`);
  if (problems.length > 0) throw new Error(`${scenario}: the burst is not exact: ${problems.slice(0, 10).join("; ")}`);
  return [
    row(scenario, "sustained joins", "joins/s", alone.requests.average, floor.requests.average, { appAtLeast: TARGET_JOINS_PER_SECOND }),
    row(scenario, "join p99 latency", "ms", alone.latency.p99, floor.latency.p99, { appBelow: TARGET_P99_MS }),
    // The server's own cost, whatever share of the cores the machine gives it.
    row(scenario, "joins per CPU second of the server", "joins/s", alone["2xx"] / serverCpu, floor["2xx"] / baselineCpu),
    row(scenario, `join p99 latency at ${TARGET_JOINS_PER_SECOND.toLocaleString("en")} joins/s, steady`, "ms", steadyApp.p99, steadyFloor.p99),
    row(scenario, `longest join at ${TARGET_JOINS_PER_SECOND.toLocaleString("en")} joins/s, steady`, "ms", steadyApp.max, steadyFloor.max),
    row(scenario, "/v1 read p99 latency, quiet server", "ms", quiet.p99, null),
    row(scenario, "/v1 read p99 latency during the joins", "ms", reads.p99, null, { appBelow: TARGET_P99_MS }),
    row(scenario, "joins while /v1 reads in a closed loop", "joins/s", load.requests.average, null),
    row(scenario, "join p99 latency while /v1 reads", "ms", load.latency.p99, null),
    row(scenario, `burst of ${BURST.toLocaleString("en")} joins, ${BURST_CLIENTS} clients, 10 % retried`, "s", seconds, null),
    row(scenario, "burst join p99 latency", "ms", percentile(times, 0.99), null),
    row(scenario, "burst: signups, counts, positions and events not exact", "count", problems.length, null, { appBelow: 1 }),
    ...(await referredBurst(bench, db, joinKey)),
  ];
}

const REFERRERS = 500;
const REFERRED_SHARE = 0.3;
const RANKING_STEP = 10;

/**
 * The burst again on a list ranked "move up 10 places per counted referral" (issue 31): 500 people join
 * first, then 10,000 joins of which 30 % carry one of their referral codes and 10 % are retries. Checked
 * exactly: signups, events, referrals, and every waiting signup's place (a permutation of 1…n that
 * follows the place keys).
 */
async function referredBurst(bench: Bench, db: AppDatabase, joinKey: Record<string, string>): Promise<Row[]> {
  const scenario = `joins through /v1, ranked by referrals (one worker, ${bench.scaleLabel} dataset)`;
  const waitlistId = await openWaitlist(bench, db);
  await setRankingRule(waitlistId, { kind: "referrals", step: RANKING_STEP, cap: null }, "cli", db);
  const first = await burst(bench.app.origin, waitlistId, joinKey, Array.from({ length: REFERRERS }, (_, index) => `referrer.${index}@example.com`), 50);
  const referrerCodes = first.answers.map((answer) => answer.body.referral_code!);
  const { emails, unique } = burstEmails(BURST);
  const random = seededRandom(7);
  const codeOf = new Map<string, string | undefined>();
  for (const email of emails) if (!codeOf.has(email.toLowerCase())) codeOf.set(email.toLowerCase(), random() < REFERRED_SHARE ? referrerCodes[Math.floor(random() * REFERRERS)] : undefined);
  const codes = emails.map((email) => codeOf.get(email.toLowerCase()));
  const { answers, seconds } = await burst(bench.app.origin, waitlistId, joinKey, emails, BURST_CLIENTS, codes);
  const referred = [...codeOf.values()].filter((code) => code !== undefined).length;
  const problems: string[] = [];
  const count = (sql: string) => countOf(db, sql, waitlistId);
  const expected = { signups: REFERRERS + unique, events: REFERRERS + unique, referrals: referred };
  const found = {
    signups: await count("SELECT count(*) AS n FROM signups WHERE waitlist_id = ?"),
    events: await count("SELECT count(DISTINCT signup_id) AS n FROM events WHERE waitlist_id = ? AND type = 'signup.created'"),
    referrals: await count("SELECT count(*) AS n FROM referrals WHERE waitlist_id = ? AND state = 'counted'"),
  };
  for (const key of Object.keys(expected) as (keyof typeof expected)[]) if (found[key] !== expected[key]) problems.push(`${key}: ${found[key]}, expected ${expected[key]}`);
  if ((await count("SELECT count(*) AS n FROM events WHERE waitlist_id = ? AND type = 'signup.created'")) !== found.events) problems.push("a signup has two signup.created events");
  if (answers.filter((answer) => answer.status === 201).length !== unique) problems.push("the 201 answers are not one per address");
  // Every waiting signup's place, by the query layer, against a sort of every place key.
  const keys = (
    await db.$engine
      .prepare("SELECT id, coalesce(line_at, created_at) AS at, coalesce(line_pos, id) AS pos FROM signups WHERE waitlist_id = ? AND status = 'waiting'")
      .all<{ id: number | string; at: number | string; pos: number | string }>([waitlistId])
  ).map((key) => ({ id: Number(key.id), at: Number(key.at), pos: Number(key.pos) }));
  keys.sort((a, b) => a.at - b.at || a.pos - b.pos || a.id - b.id);
  let misplaced = 0;
  for (const [index, key] of keys.entries()) if ((await signupPosition(waitlistId, key.id, db)) !== index + 1) misplaced++;
  if (misplaced > 0) problems.push(`${misplaced} places are not the line's`);
  const moved = await count("SELECT count(*) AS n FROM signups WHERE waitlist_id = ? AND line_at IS NOT NULL");
  bench.log(`  ranked burst: ${BURST} joins (${referred} referred, ${BURST - unique} retries) in ${seconds.toFixed(1)} s, p99 ${percentile(answers.map((answer) => answer.ms), 0.99).toFixed(0)} ms; ${moved} referrers moved; ${problems.length === 0 ? "exact" : problems.join("; ")}`);
  if (problems.length > 0) throw new Error(`${scenario}: the burst is not exact: ${problems.join("; ")}`);
  return [
    row(scenario, `burst of ${BURST.toLocaleString("en")} joins, 30 % referred, 10 % retried`, "s", seconds, null),
    row(scenario, "ranked burst join p99 latency", "ms", percentile(answers.map((answer) => answer.ms), 0.99), null),
    row(scenario, "ranked burst: signups, events, referrals and places not exact", "count", problems.length, null, { appBelow: 1 }),
  ];
}
