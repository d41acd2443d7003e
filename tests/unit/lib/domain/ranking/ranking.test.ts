import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DAY_MS } from "@/lib/core/time";
import { decideFlags } from "@/lib/domain/fraud/review";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { placeByJoining, signupPosition } from "@/lib/domain/joining/position";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { beginRankingRuleChange, previewRankingRule, RESTAND_BATCH, restandBatch, setRankingRule } from "@/lib/domain/ranking/apply";
import { lineSlice, moveInLine } from "@/lib/domain/ranking/line";
import { nextInLine } from "@/lib/domain/ranking/line-scope";
import { rankingRuleSchema } from "@/lib/domain/ranking/rule";
import { rankingRuleOf } from "@/lib/domain/ranking/rules";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { inTurn, upTo } from "@/tests/support/in-turn";
import { insertSignups } from "@/tests/support/insert-signups";
import { queryPlan, statementsPreparedBy } from "@/tests/support/query-plans";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const rule = (text: string) => rankingRuleSchema.parse(text);

describe("ranking rules", () => {
  let temp: TempDatabase;
  let waitlistId: string;
  beforeEach(async () => {
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Acme Beta", website: "https://acme.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => temp.close());

  const join = async (email: string, referralCode?: string) => (await joinWaitlist({ waitlistId, email, customInputs: [], referralCode }, temp.db)).signup;
  const place = async (id: number) => await signupPosition(waitlistId, id, temp.db);
  /** Every waiting signup's place, in line order: must be 1..n. */
  const places = async () => await Promise.all((await lineSlice(waitlistId, undefined, 10_000, temp.db)).map((key) => place(key.id)));
  /** `count` people joining one after the other, p0@example.com first. */
  const joinInTurn = (count: number) => inTurn(upTo(count), (index) => join(`p${index}@example.com`));

  it("reads a filtered line as two index walks, the moved signups' through their partial index, with no sort", async () => {
    const texts = (await statementsPreparedBy(temp.db, () => nextInLine({ waitlistId, verified: true }, 10, temp.db))).filter((text) => /union all/i.test(text));
    expect(texts).toHaveLength(1);
    const plan = queryPlan(temp.db, texts[0]!);
    expect(plan).toMatch(/SEARCH signups USING INDEX signups_waitlist_order_idx \(waitlist_id=\?\)/);
    expect(plan).toMatch(/SEARCH signups USING INDEX signups_moved_line_idx \(waitlist_id=\? AND line_at>\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN signups/);
  });

  it("parses the CLI's rules and refuses anything else", () => {
    expect(rule("first-come")).toEqual({ kind: "first-come" });
    expect(rule("referrals:10")).toEqual({ kind: "referrals", step: 10, cap: null });
    expect(rule("points:24:5")).toEqual({ kind: "points", step: 24, cap: 5 });
    expect(rule("referrals:10000")).toEqual({ kind: "referrals", step: 10_000, cap: null });
    expect(rule("points:100000")).toEqual({ kind: "points", step: 100_000, cap: null });
    for (const bad of ["referrals", "referrals:0", "points:-1", "referrals:10:0", "first", "points:1:2:3", "referrals:99999999", "referrals:10001"]) {
      expect(rankingRuleSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("moves a referrer up N places for each counted referral, at once, and keeps every place exact", async () => {
    await setRankingRule(waitlistId, rule("referrals:3"), "cli", temp.db);
    const people = await joinInTurn(10);
    const referrer = people[7]!;
    expect(await place(referrer.id)).toBe(8);
    await join("friend1@example.com", referrer.referral_code);
    expect(await place(referrer.id)).toBe(5);
    // Those it passed each stand one place further back.
    expect(await place(people[4]!.id)).toBe(6);
    await join("friend2@example.com", referrer.referral_code);
    expect(await place(referrer.id)).toBe(2);
    await join("friend3@example.com", referrer.referral_code);
    expect(await place(referrer.id)).toBe(1);
    // By the order of joining alone: where each would stand had no referral moved anyone.
    expect(await placeByJoining(waitlistId, referrer.id, temp.db)).toBe(8);
    expect(await placeByJoining(waitlistId, people[0]!.id, temp.db)).toBe(1);
    expect(await place(people[0]!.id)).toBe(2);
    expect(await places()).toEqual(Array.from({ length: 13 }, (_, index) => index + 1));
  });

  it("a referral held for review moves its referrer only once an admin approves it", async () => {
    await setRankingRule(waitlistId, rule("referrals:2"), "cli", temp.db);
    const people = await joinInTurn(6);
    await join("throwaway@mailinator.com", people[5]!.referral_code);
    expect(await place(people[5]!.id)).toBe(6);
    await decideFlags("cli", "approve", { waitlistId, emails: ["throwaway@mailinator.com"] }, temp.db);
    expect(await place(people[5]!.id)).toBe(4);
    expect(await places()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("stops at the cap, and under points stands a referrer P hours earlier per referral", async () => {
    await setRankingRule(waitlistId, rule("referrals:1:1"), "cli", temp.db);
    const people = await joinInTurn(5);
    await join("f1@example.com", people[4]!.referral_code);
    await join("f2@example.com", people[4]!.referral_code);
    expect(await place(people[4]!.id)).toBe(4);

    await setRankingRule(waitlistId, rule("points:1"), "cli", temp.db);
    // Everyone joined within the same second: one hour earlier puts the referrer (2 referrals) first.
    expect(await place(people[4]!.id)).toBe(1);
    expect(await places()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("previews a rule change exactly without making it, then applies and undoes it", async () => {
    const people = await joinInTurn(20);
    for (const friend of ["a", "b"]) await join(`${friend}@example.com`, people[15]!.referral_code);
    expect(await place(people[15]!.id)).toBe(16);
    const preview = await previewRankingRule(waitlistId, rule("referrals:5"), temp.db);
    expect(preview).toContainEqual({ signupId: people[15]!.id, email: "p15@example.com", before: 16, after: 6 });
    expect(preview).toContainEqual({ signupId: people[0]!.id, email: "p0@example.com", before: 1, after: 1 });
    expect(await place(people[15]!.id)).toBe(16);
    expect(await rankingRuleOf(waitlistId, temp.db)).toEqual({ kind: "first-come" });

    await setRankingRule(waitlistId, rule("referrals:5"), "cli", temp.db);
    expect(await place(people[15]!.id)).toBe(6);
    expect(await places()).toEqual(Array.from({ length: 22 }, (_, index) => index + 1));
    await setRankingRule(waitlistId, rule("first-come"), "cli", temp.db);
    expect(await place(people[15]!.id)).toBe(16);
    const audit = temp.db.$client.prepare("SELECT summary FROM audit_log WHERE action = 'waitlist.ranking' ORDER BY id").all() as { summary: string }[];
    expect(audit.map((row) => row.summary)).toEqual(["ranking referrals:5 (was first-come)", "ranking first-come (was referrals:5)"]);
  });

  it("stands referrers again in batches of RESTAND_BATCH, each its own write, and lands where one write would", async () => {
    const count = RESTAND_BATCH + 500;
    insertSignups(waitlistId, Array.from({ length: count * 2 }, (_, index) => ({ email: `s${index}@example.com`, verified: false, referral: index % 2 === 1, customInputs: "[]" })), temp.db);
    const ids = (temp.db.$client.prepare("SELECT id FROM signups WHERE waitlist_id = ? ORDER BY id").all(waitlistId) as { id: number }[]).map((row) => row.id);
    // Every even signup referred the odd one after it: `count` referrers, one counted referral each.
    const insert = temp.db.$client.prepare("INSERT INTO referrals (signup_id, referrer_id, waitlist_id, state, counted_at) VALUES (?, ?, ?, 'counted', 0)");
    temp.db.$client.transaction(() => ids.forEach((id, index) => index % 2 === 1 && insert.run(id, ids[index - 1], waitlistId)))();
    const change = await beginRankingRuleChange(waitlistId, rule("referrals:3"), "cli", temp.db);
    expect(change.batches.map((batch) => batch.length)).toEqual([RESTAND_BATCH, 500]);
    for (const batch of change.batches) await restandBatch(waitlistId, batch, temp.db);
    // s0 cannot move; s2 passes s1 and s0 (two ahead of it), s4 passes s1, s2, s3.
    expect(await Promise.all([0, 2, 4, 6].map((index) => place(ids[index]!)))).toEqual([2, 1, 3, 5]);
    const line = (await lineSlice(waitlistId, undefined, count * 2, temp.db)).map((key) => key.id);
    expect(new Set(line).size).toBe(count * 2);
    expect([await place(line[0]!), await place(line.at(-1)!)]).toEqual([1, count * 2]);
  });

  it("counts places exactly over days, ties, statuses and moved signups (against a sort of every key)", async () => {
    const start = Date.UTC(2026, 0, 1, 12);
    const statuses = ["waiting", "invited", "waiting", "rejected", "waiting"] as const;
    const rows = Array.from({ length: 120 }, (_, index) => ({
      email: `p${index}@example.com`,
      verified: false,
      referral: false,
      customInputs: "[]",
      createdAt: start + Math.floor(index / 3) * (DAY_MS / 5),
      status: statuses[index % statuses.length],
    }));
    insertSignups(waitlistId, [...rows].reverse(), temp.db);
    const all = temp.db.$client.prepare("SELECT id, created_at AS at FROM signups WHERE waitlist_id = ?").all(waitlistId) as { id: number; at: number }[];
    // Move every seventh signup somewhere earlier: onto another's instant, between two ids, or before everyone.
    for (const [index, signup] of all.entries()) {
      if (index % 7 === 0) await moveInLine(signup.id, { at: start + (index % 4) * DAY_MS + (index % 3) * (DAY_MS / 5), pos: all[(index * 13) % all.length]!.id + 0.5 }, temp.db);
    }
    // A moved signup that leaves the line and one erased: the counts per day follow.
    temp.db.$client.prepare("UPDATE signups SET status = 'invited' WHERE id = ?").run(all[14]!.id);
    temp.db.$client.prepare("DELETE FROM signups WHERE id = ?").run(all[21]!.id);
    const waiting = temp.db.$client
      .prepare("SELECT id, coalesce(line_at, created_at) AS at, coalesce(line_pos, id) AS pos FROM signups WHERE waitlist_id = ? AND status = 'waiting'")
      .all(waitlistId) as { id: number; at: number; pos: number }[];
    waiting.sort((a, b) => a.at - b.at || a.pos - b.pos || a.id - b.id);
    for (const [index, signup] of waiting.entries()) expect(await place(signup.id), `signup ${signup.id}`).toBe(index + 1);
    expect((await lineSlice(waitlistId, undefined, 1000, temp.db)).map((key) => key.id)).toEqual(waiting.map((signup) => signup.id));
  });
});
