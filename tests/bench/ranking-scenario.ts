import { openDatabase } from "@/db/client";
import { signupPosition } from "@/lib/domain/joining/position";
import { referralCodeOf } from "@/lib/domain/joining/referral-code";
import { joinSettingsOf, updateJoinSettings } from "@/lib/domain/joining/settings";
import { beginRankingRuleChange, restandBatch, setRankingRule } from "@/lib/domain/ranking/apply";
import { JOIN_WAIT_MS, joinWaitlist } from "@/lib/domain/joining/join";
import { lineSlice } from "@/lib/domain/ranking/line";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { percentile } from "./measure";
import { seededRandom } from "./random";
import { row, type Row } from "./report";

const STEP = 10;
const POSITION_TARGET_MS = 5;
const WRITE_TARGET_MS = 10;
const INVITE_TARGET_S = 3;
const SAMPLES = 2_000;
const WRITES = 500;
const INVITED = 100_000;
const CHECKED = 5;

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/**
 * Places under "move up 10 places per counted referral" on the big list: a tenth of its signups are
 * counted referrals of a fiftieth (1,000,000 over 200,000 referrers at 10M). Times the rule change
 * (every referrer stood again), 2,000 places (half of them referrers') checked against a plain count
 * on a few, 500 referred joins (each moves its referrer at once, checked) and "invite the next
 * 100,000 in line"; then leaves the list as it found it.
 */
export async function rankingScenario(databasePath: string, waitlistId: string, scaleLabel: string, log: (line: string) => void): Promise<Row[]> {
  const scenario = `ranking by referrals (${scaleLabel} list)`;
  const db = openDatabase(databasePath);
  const sqlite = db.$client;
  const settingsBefore = await joinSettingsOf(waitlistId, db);
  const joined: number[] = [];
  try {
    // Raw: bench fixtures written set-based, a million rows in one statement.
    const fixture = await timed(async () =>
      sqlite
        .prepare(
          `WITH referrer AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM signups WHERE waitlist_id = @w AND status = 'waiting' AND id % 50 = 0),
                friend AS (SELECT id, created_at, row_number() OVER (ORDER BY id) - 1 AS n FROM signups WHERE waitlist_id = @w AND id % 10 = 1)
           INSERT INTO referrals (signup_id, referrer_id, waitlist_id, state, counted_at)
           SELECT friend.id, referrer.id, @w, 'counted', friend.created_at - 172800000 FROM friend JOIN referrer ON referrer.n = friend.n % (SELECT count(*) FROM referrer)`,
        )
        .run({ w: waitlistId }).changes,
    );
    const referrers = (sqlite.prepare("SELECT DISTINCT referrer_id AS id FROM referrals WHERE waitlist_id = ?").all(waitlistId) as { id: number }[]).map((referrer) => referrer.id);
    log(`  ${fixture.result.toLocaleString("en")} counted referrals over ${referrers.length.toLocaleString("en")} referrers written in ${(fixture.ms / 1000).toFixed(1)} s`);

    // The change as the server makes it: a write storing the rule, then one write per batch of referrers.
    const begin = await timed(() => beginRankingRuleChange(waitlistId, { kind: "referrals", step: STEP, cap: null }, "cli", db));
    const batchTimes: number[] = [];
    for (const batch of begin.result.batches) batchTimes.push((await timed(() => restandBatch(waitlistId, batch, db))).ms);
    const change = { ms: begin.ms + batchTimes.reduce((sum, ms) => sum + ms, 0) };
    const longestWrite = Math.max(begin.ms, ...batchTimes);
    log(`  rule change: ${(change.ms / 1000).toFixed(1)} s in ${batchTimes.length + 1} writes, the longest ${longestWrite.toFixed(0)} ms`);

    const random = seededRandom(31);
    const { low, high } = sqlite.prepare("SELECT min(id) AS low, max(id) AS high FROM signups WHERE waitlist_id = ?").get(waitlistId) as { low: number; high: number };
    const ids = Array.from({ length: SAMPLES }, (_, index) => (index % 2 === 0 ? referrers[Math.floor(random() * referrers.length)]! : low + Math.floor(random() * (high - low + 1))));
    await signupPosition(waitlistId, ids[0]!, db);
    const times: number[] = [];
    const cpuTimes: number[] = [];
    const places = new Map<number, number | null>();
    for (const id of ids) {
      const cpu = process.cpuUsage();
      const started = performance.now();
      places.set(id, await signupPosition(waitlistId, id, db));
      times.push(performance.now() - started);
      const used = process.cpuUsage(cpu);
      cpuTimes.push((used.user + used.system) / 1000);
    }
    // Raw: the reference, every waiting signup's place key compared without the indexes (slow: that is the point).
    const plain = sqlite.prepare<{ w: string; id: number }, { n: number }>(
      `SELECT count(*) AS n FROM signups AS other, (SELECT coalesce(line_at, created_at) AS at, coalesce(line_pos, id) AS pos, id FROM signups WHERE id = @id) AS me
       WHERE other.waitlist_id = @w AND other.status = 'waiting' AND (coalesce(other.line_at, other.created_at), coalesce(other.line_pos, other.id), other.id) < (me.at, me.pos, me.id)`,
    );
    const checked = ids.filter((id) => places.get(id) !== null).slice(0, CHECKED);
    for (const id of checked) {
      const expected = 1 + plain.get({ w: waitlistId, id })!.n;
      if (places.get(id) !== expected) throw new Error(`${scenario}: signup ${id} is number ${places.get(id)}, a plain count says ${expected}`);
    }
    log(`  ${SAMPLES} places: p50 ${percentile(times, 0.5).toFixed(2)} ms, p99 ${percentile(times, 0.99).toFixed(2)} ms; ${checked.length} checked against a plain count`);

    // Referred joins: each counts at once and moves its referrer up STEP places.
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", db);
    const writeTimes: number[] = [];
    // The same join without a referral code, alternately: what a join costs on this connection
    // (its commits, SQLite's own checkpoints), whatever a referral adds.
    const plainTimes: number[] = [];
    for (let index = 0; index < WRITES; index++) {
      const plainStarted = performance.now();
      joined.push((await joinWaitlist({ waitlistId, email: `ranked.plain${index}@example.com`, customInputs: [] }, db)).signup.id);
      plainTimes.push(performance.now() - plainStarted);
      const referrer = referrers[Math.floor(random() * referrers.length)]!;
      const code = await referralCodeOf(referrer, db);
      const before = await signupPosition(waitlistId, referrer, db);
      const started = performance.now();
      const outcome = await joinWaitlist({ waitlistId, email: `ranked.friend${index}@example.com`, customInputs: [], referralCode: code }, db);
      writeTimes.push(performance.now() - started);
      joined.push(outcome.signup.id);
      const after = await signupPosition(waitlistId, referrer, db);
      if (before !== null && after !== Math.max(1, before - STEP)) throw new Error(`${scenario}: a referral moved signup ${referrer} from ${before} to ${after}`);
    }
    log(`  ${WRITES} referred joins: p50 ${percentile(writeTimes, 0.5).toFixed(2)} ms, p99 ${percentile(writeTimes, 0.99).toFixed(2)} ms; ${WRITES} plain joins between them: p50 ${percentile(plainTimes, 0.5).toFixed(2)} ms, p99 ${percentile(plainTimes, 0.99).toFixed(2)} ms`);

    const front = (await lineSlice(waitlistId, undefined, INVITED, db)).map((key) => key.id);
    const invite = await timed(() => applyStatusAction("cli", { action: "invite", selection: { scope: { waitlistId }, limit: INVITED } }, db));
    const invited = new Set((sqlite.prepare("SELECT id FROM signups WHERE waitlist_id = ? AND status = 'invited'").all(waitlistId) as { id: number }[]).map((signup) => signup.id));
    if (invite.result.changed !== INVITED || front.some((id) => !invited.has(id))) throw new Error(`${scenario}: the invitation did not take the first ${INVITED} in line`);
    await applyStatusAction("cli", { action: "withdraw", selection: { scope: { waitlistId }, limit: INVITED } }, db);
    log(`  invite the next ${INVITED.toLocaleString("en")} in line: ${(invite.ms / 1000).toFixed(2)} s`);

    return [
      row(scenario, "change the rule (every referrer stood again)", "s", change.ms / 1000, null),
      row(scenario, "change the rule: its longest single write (what a join waits at most)", "ms", longestWrite, null, { appBelow: JOIN_WAIT_MS }),
      row(scenario, "one place, p50", "ms", percentile(times, 0.5), null),
      row(scenario, "one place, p99", "ms", percentile(times, 0.99), null, { appBelow: POSITION_TARGET_MS }),
      row(scenario, "one place, p99 of CPU time", "ms", percentile(cpuTimes, 0.99), null, { appBelow: POSITION_TARGET_MS }),
      row(scenario, "a referred join that moves its referrer, p99", "ms", percentile(writeTimes, 0.99), null, { appBelow: WRITE_TARGET_MS }),
      row(scenario, "a join without a referral between them, p99", "ms", percentile(plainTimes, 0.99), null),
      // The target is for the 1M list.
      row(scenario, `invite the next ${INVITED.toLocaleString("en")} in line`, "s", invite.ms / 1000, null, scaleLabel === "1M" ? { appBelow: INVITE_TARGET_S } : undefined),
    ];
  } finally {
    await setRankingRule(waitlistId, { kind: "first-come" }, "cli", db);
    sqlite.prepare("DELETE FROM referrals WHERE waitlist_id = ?").run(waitlistId);
    const erase = sqlite.prepare("DELETE FROM signups WHERE id = ?");
    sqlite.transaction(() => joined.forEach((id) => erase.run(id)))();
    await updateJoinSettings(waitlistId, settingsBefore, "cli", db);
    sqlite.close();
  }
}
