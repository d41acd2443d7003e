import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { countJoinPageView, flushJoinPageViews } from "@/lib/domain/funnel/page-views";
import { funnelStatsResponseSchema } from "@/lib/domain/funnel/schemas";
import { funnelStats } from "@/lib/domain/funnel/stats";
import { joinWaitlist } from "@/lib/domain/joining/join";
import { updateJoinSettings } from "@/lib/domain/joining/settings";
import { applyStatusAction } from "@/lib/domain/signups/transitions";
import { createWaitlist } from "@/lib/domain/waitlists/queries";
import { recountFunnel, type RecountRow } from "@/tests/support/funnel-recount";
import { insertSignups } from "@/tests/support/insert-signups";
import { tempDatabase, type TempDatabase } from "@/tests/support/temp-db";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const START = Date.UTC(2026, 8, 28, 9); // a Monday
const SOURCES = [{ utm_source: "newsletter", utm_campaign: "launch" }, { referrer: "news.ycombinator.com" }, {}, { utm_source: "x", utm_medium: "social" }];

let temp: TempDatabase;
let waitlistId: string;

function rows(): RecountRow[] {
  return temp.db.$client
    .prepare<[string], { createdAt: number; verified: number; referral: number; source: string | null; invitedAt: number | null; completedAt: number | null; expiredAt: number | null }>(
      "SELECT created_at AS createdAt, verified, referral, coalesce(utm_source, referrer) AS source, invited_at AS invitedAt, completed_at AS completedAt, expired_at AS expiredAt FROM signups WHERE waitlist_id = ?",
    )
    .all(waitlistId)
    .map((row) => ({ ...row, verified: row.verified === 1, referral: row.referral === 1 }));
}

/** The counted funnel against the recount from the rows; and the counting tables against their views recomputed. */
async function expectRecount(fromDay?: number, toDay?: number) {
  const stats = await funnelStats(waitlistId, { fromDay, toDay }, temp.db);
  expect(funnelStatsResponseSchema.safeParse(stats).success).toBe(true);
  const expected = recountFunnel(rows(), fromDay, toDay);
  const { views, ...totals } = stats.totals;
  expect(views).toBeGreaterThanOrEqual(0);
  expect(totals).toEqual(expected.totals);
  expect(stats.referral_factor).toBe(expected.referral_factor);
  expect(stats.median_hours).toEqual(expected.median_hours);
  expect(stats.days.filter((day) => day.joined > 0).map(({ views: _views, ...day }) => day)).toEqual(expected.days);
  expect(stats.cohorts.map(({ rates: _rates, ...cohort }) => cohort)).toEqual(expected.cohorts);
  expect(Object.fromEntries(stats.sources.map(({ source, rates: _rates, ...counts }) => [source ?? "(none)", counts]))).toEqual(expected.sources);
  const sql = temp.db.$client;
  expect(sql.prepare("SELECT waitlist_id, day, stage, count FROM funnel_counts ORDER BY 1, 2, 3").all()).toEqual(
    sql.prepare("SELECT waitlist_id, day, stage, count(*) AS count FROM signup_funnel_stages GROUP BY 1, 2, 3 ORDER BY 1, 2, 3").all(),
  );
  expect(sql.prepare("SELECT waitlist_id, source, stage, day, count FROM funnel_source_counts ORDER BY 1, 2, 3, 4").all()).toEqual(
    sql.prepare("SELECT waitlist_id, source, stage, day, count(*) AS count FROM signup_funnel_stages GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4").all(),
  );
  expect(sql.prepare("SELECT waitlist_id, day, kind, bucket, count FROM funnel_durations ORDER BY 1, 2, 3, 4").all()).toEqual(
    sql.prepare("SELECT waitlist_id, day, kind, bucket, count(*) AS count FROM signup_funnel_durations GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4").all(),
  );
  return stats;
}

const at = (ms: number) => vi.setSystemTime(ms);
const idsOf = (emails: string[]) => emails.map((email) => temp.db.$client.prepare<[string], { id: number }>("SELECT id FROM signups WHERE email = ?").get(email)!.id);
const act = async (action: "invite" | "complete" | "withdraw" | "reject", emails: string[]) => await applyStatusAction("cli", { action, selection: { waitlistId, ids: idsOf(emails) } }, temp.db);

describe("funnelStats", () => {
  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    at(START);
    temp = tempDatabase();
    waitlistId = (await createWaitlist({ name: "Funnel", website: "https://funnel.example" }, temp.db)).id;
    await updateJoinSettings(waitlistId, { joining: "open" }, "cli", temp.db);
  });
  afterEach(() => {
    vi.useRealTimers();
    temp.close();
  });

  it("equals a recount from the rows through joins, verification, invitations, completion, expiry, withdrawal and erasure", async () => {
    const emails: string[] = [];
    let code: string | undefined;
    for (let index = 0; index < 40; index++) {
      at(START + index * 9 * HOUR);
      const email = `p${index}@example.com`;
      const joined = await joinWaitlist({ waitlistId, email, customInputs: [], referralCode: index % 5 === 4 ? code : undefined, source: SOURCES[index % SOURCES.length] }, temp.db);
      code ??= joined.signup.referral_code;
      emails.push(email);
    }
    temp.db.$client.prepare("UPDATE signups SET verified = 1 WHERE id % 3 <> 0").run();
    at(START + 10 * DAY);
    await act("invite", emails.slice(0, 20));
    at(START + 10 * DAY + 5 * HOUR);
    await act("complete", emails.slice(0, 6));
    at(START + 13 * DAY);
    await act("complete", emails.slice(6, 9));
    // Withdrawn and invited again: the first invitation stays the one counted.
    await act("withdraw", emails.slice(15, 18));
    at(START + 20 * DAY);
    await act("invite", emails.slice(15, 25));
    // Expiry is read from the events by type name, whichever writer appends them.
    for (const id of idsOf(emails.slice(9, 12))) {
      temp.db.$client.prepare("INSERT INTO events (type, waitlist_id, signup_id, created_at, payload) VALUES ('signup.invitation_expired', ?, ?, ?, '{}')").run(waitlistId, id, Date.now());
    }
    const before = await expectRecount();
    expect(before.totals).toMatchObject({ joined: 40, invited: 25, completed: 9, expired: 3 });
    expect(before.sources.map((source) => source.source)).toEqual(expect.arrayContaining(["newsletter", "news.ycombinator.com", "x", null]));
    // An erasure takes its signup's stages and durations away.
    temp.db.$client.prepare("DELETE FROM signups WHERE email IN ('p0@example.com', 'p10@example.com')").run();
    const after = await expectRecount();
    expect(after.totals.joined).toBe(38);
    // Direct writes keep them exact too: times moved or cleared, flags and sources changed with them or alone.
    const sql = temp.db.$client;
    sql.prepare("UPDATE signups SET invited_at = invited_at + 3600000 WHERE invited_at IS NOT NULL AND id % 3 = 0").run();
    sql.prepare("UPDATE signups SET verified = 1 - verified, invited_at = NULL WHERE id % 4 = 0").run();
    sql.prepare("UPDATE signups SET verified = verified, completed_at = NULL WHERE id % 5 = 1").run();
    sql.prepare("UPDATE signups SET utm_source = 'moved' WHERE id % 6 = 0").run();
    await expectRecount();
    // A range of days of joining.
    const firstDay = Math.floor(START / DAY);
    await expectRecount(firstDay + 2, firstDay + 9);
    await expectRecount(firstDay + 3, firstDay + 3);
  });

  it("counts join-page views per day, written by the flush", async () => {
    countJoinPageView(waitlistId, START);
    countJoinPageView(waitlistId, START + 1000);
    countJoinPageView(waitlistId, START + DAY);
    await joinWaitlist({ waitlistId, email: "a@example.com", customInputs: [] }, temp.db);
    await flushJoinPageViews(temp.db);
    const stats = await funnelStats(waitlistId, {}, temp.db);
    expect(stats.totals.views).toBe(3);
    expect(stats.days.map((day) => [day.day, day.views, day.joined])).toEqual([
      ["2026-09-28", 2, 1],
      ["2026-09-29", 1, 0],
    ]);
    expect(stats.rates.view_to_join).toBe(0.3333);
  });

  it("counts what the bulk writer adds exactly as the triggers would", async () => {
    insertSignups(
      waitlistId,
      Array.from({ length: 300 }, (_, index) => ({
        email: `bulk${index}@example.com`,
        verified: index % 2 === 0,
        referral: index % 7 === 0,
        customInputs: "[]",
        createdAt: START + index * 3 * HOUR,
        source: SOURCES[index % SOURCES.length],
        ...(index % 4 === 0 ? { status: "invited" as const, statusChangedAt: START + index * 3 * HOUR + (index % 50) * HOUR } : {}),
        ...(index % 12 === 0 ? { status: "completed" as const, statusChangedAt: START + index * 4 * HOUR, invitedAt: START + index * 3 * HOUR + 30 * HOUR, completedAt: START + index * 4 * HOUR } : {}),
      })),
      temp.db,
    );
    const stats = await expectRecount();
    expect(stats.totals.joined).toBe(300);
    expect(stats.median_hours.join_to_invite).not.toBeNull();
    expect(stats.median_hours.invite_to_complete).not.toBeNull();
  });
});
